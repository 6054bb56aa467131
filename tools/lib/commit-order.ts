/**
 * The order in which DSH 0.1.0-rc.8 settles the tool calls of one model step
 * (`runGroup` of `@deepseek-ai/dsh-agent-loop`): calls start in model order —
 * each start runs the call's policy (`tools/pre-execute`, approval, guards) —
 * and their results commit in model order, each through `tools/post-execute`.
 * A result commits as soon as it is ready and every earlier call of the step
 * has committed: a refused call is ready at once, a call that runs when its
 * body ends. Parallel-safe calls start as a pool, so a later call's policy
 * runs before an earlier call's post-execute; an exclusive call starts only
 * after everything before it committed. A step ends before the next begins.
 *
 * The replay learns when a body ended from the log: the agent loop writes
 * `tool/call` as it starts a call and `tool/result` as it commits one.
 */
export class CommitOrder<T> {
  private step: string | undefined;
  private readonly waiting: { readonly item: T; ready: boolean }[] = [];

  constructor(private readonly commit: (item: T) => Promise<void>) {}

  /**
   * A call of `step` is about to start. A call of another step (or of no known
   * step: each such call is its own) first commits what the last step left.
   */
  async enter(step: string | undefined): Promise<void> {
    if (step === undefined || step !== this.step) await this.flush();
    this.step = step;
  }

  /** The call started (its policy has run): it commits in this place. */
  add(item: T): void {
    this.waiting.push({ item, ready: false });
  }

  /** The call's result is ready: commit every call at the head of the step whose result is. */
  async ready(item: T): Promise<void> {
    const slot = this.waiting.find((entry) => entry.item === item);
    if (slot === undefined) {
      // A result logged after its step was over: commit it where it stands.
      await this.commit(item);
      return;
    }
    slot.ready = true;
    while (this.waiting[0]?.ready === true) {
      const head = this.waiting.shift() as { item: T };
      await this.commit(head.item);
    }
  }

  /** The step is over (a human message, the end of the log): commit what is ready; a call that never got a result never commits. */
  async flush(): Promise<void> {
    const left = this.waiting.splice(0);
    for (const entry of left) if (entry.ready) await this.commit(entry.item);
  }
}
