import { FairQueue } from "../../framework/sandbox/fair-queue.ts";
import { ApiError } from "../../kernel/errors.ts";

/** Generations running at once on this node, over every organization. */
export const MAX_GENERATIONS = 4;
/** Generations one organization may run at once, and have waiting; more waiting is refused as `rate_limited`. */
export const ORGANIZATION_SHARE = { maxRunning: 2, maxWaiting: 8 };

/** The node's generation slots: a fair line across organizations in front of a small pool. */
export class GenerationSlots {
  private readonly queue = new FairQueue<() => void>(ORGANIZATION_SHARE);
  private running = 0;

  /** Runs `work` once a slot is free for the organization; at most `ORGANIZATION_SHARE.maxWaiting` wait. */
  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      if (!this.queue.offer(organizationId, resolve)) {
        throw new ApiError("rate_limited", "This organization already has many image generations waiting.", {
          retryAfterSeconds: 10,
          suggestion: "Wait for the running generations to finish, then call media.generateImages again.",
        });
      }
      this.pump();
    });
    try {
      return await work();
    } finally {
      this.running--;
      this.queue.finished(organizationId);
      this.pump();
    }
  }

  private pump(): void {
    while (this.running < MAX_GENERATIONS) {
      const next = this.queue.take();
      if (!next) return;
      this.running++;
      next.item();
    }
  }
}

const slotsByPlatform = new WeakMap<object, GenerationSlots>();

/** The generation slots of one platform (each platform in a process has its own). */
export function slotsOf(platform: object): GenerationSlots {
  const existing = slotsByPlatform.get(platform);
  if (existing) return existing;
  const slots = new GenerationSlots();
  slotsByPlatform.set(platform, slots);
  return slots;
}
