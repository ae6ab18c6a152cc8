/** One figure a benchmark section reports. */
export interface BenchMeasure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

/** Cases side by side: one row per case, one column per figure (NaN prints as a dash). */
export interface BenchTable {
  readonly columns: readonly { readonly title: string; readonly digits: number }[];
  readonly rows: readonly { readonly name: string; readonly values: readonly number[] }[];
}

/** What a section that compares cases reports: its table, then the figures it checks against targets. */
export interface BenchReport {
  readonly table: BenchTable;
  readonly measures: readonly BenchMeasure[];
}

/** A section of `npm run bench`: a title and the measurements it takes in one run. */
export interface BenchSection {
  readonly title: string;
  run(): Promise<readonly BenchMeasure[] | BenchReport>;
}
