/** The message `run` throws with, or `(no error)`: what a refusal is compared against. */
export function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return '(no error)';
}
