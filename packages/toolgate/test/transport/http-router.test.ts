import { describe, expect, test } from 'vitest';
import { ANY_METHOD, HttpRouter } from '../../src/transport/http-router.ts';

describe('the HTTP router', () => {
  const routes = new HttpRouter<string>()
    .on('GET', '/items', 'list')
    .on('POST', '/items', 'create')
    .on('GET', '/items/:id(it_[0-9]{3})', 'one')
    .on('POST', '/items/:id(it_[0-9]{3})/notes/:note', 'note')
    .on('GET', '/a.b', 'dotted')
    .on(ANY_METHOD, '/family/*', 'family')
    .on(ANY_METHOD, '/items', 'refuse');

  test('matches method and path, first route first, with the named segments as params', () => {
    expect(routes.match('GET', '/items')).toEqual({ handler: 'list', params: {} });
    expect(routes.match('POST', '/items')).toEqual({ handler: 'create', params: {} });
    expect(routes.match('DELETE', '/items')).toEqual({ handler: 'refuse', params: {} });
    expect(routes.match('GET', '/items/it_042')).toEqual({ handler: 'one', params: { id: 'it_042' } });
    expect(routes.match('POST', '/items/it_042/notes/n%201')).toEqual({
      handler: 'note',
      params: { id: 'it_042', note: 'n%201' },
    });
  });

  test('finds nothing for a segment its pattern refuses, another method, or a longer path', () => {
    expect(routes.match('GET', '/items/it_42')).toBeUndefined();
    expect(routes.match('GET', '/items/it_042/')).toBeUndefined();
    expect(routes.match('DELETE', '/items/it_042')).toBeUndefined();
    expect(routes.match('POST', '/items/it_042/notes/a/b')).toBeUndefined();
    expect(routes.match('POST', '/items/it_042/notes/')).toBeUndefined();
  });

  test('takes literal parts literally and a trailing * as the rest of the path, maybe empty', () => {
    expect(routes.match('GET', '/a.b')?.handler).toBe('dotted');
    expect(routes.match('GET', '/aXb')).toBeUndefined();
    expect(routes.match('PUT', '/family/')).toEqual({ handler: 'family', params: { rest: '' } });
    expect(routes.match('GET', '/family/x/y')).toEqual({ handler: 'family', params: { rest: 'x/y' } });
    expect(routes.match('GET', '/family')).toBeUndefined();
  });
});
