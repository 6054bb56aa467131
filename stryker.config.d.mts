/** Types of stryker.config.mjs's named exports, for the test that keeps its file list complete. */
export declare const MUTATION_TEST_FILES: readonly string[];
export declare const NOT_RUN: Readonly<Record<string, string>>;
declare const config: Record<string, unknown>;
export default config;
