export default (() => {
  throw new Error('the config is broken');
})();
