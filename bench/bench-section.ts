/** One figure a benchmark section reports. */
export interface BenchMeasure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

/** A section of `npm run bench`: a title and the measurements it takes in one run. */
export interface BenchSection {
  readonly title: string;
  run(): Promise<BenchMeasure[]>;
}
