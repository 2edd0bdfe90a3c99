import type { Stores } from "../../db/stores/index.ts";
import type { LeaseHolder, LeaseRecord } from "../../db/stores/leases.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import type { Principal } from "../../kernel/principal.ts";
import { iso } from "../../kernel/schemas.ts";

const ACQUIRE = "{{websiteSourceCode.lease.acquire}}";

export const holderOf = (principal: Principal): LeaseHolder => ({
  type: principal.type,
  id: principal.id,
  label: principal.label,
});

const isHeldBy = (lease: LeaseRecord, holder: LeaseHolder) =>
  lease.holderType === holder.type && lease.holderId === holder.id;

const describeHolder = (lease: LeaseRecord) =>
  `${lease.holderType} '${lease.holderLabel}' (${lease.holderId})`;

/** A lease as operations return it; its id only to its holder (others learn who holds it and until when). */
export function projectLease(lease: LeaseRecord, principal: Principal) {
  const mine = isHeldBy(lease, holderOf(principal));
  return {
    ...(mine ? { leaseId: lease.leaseId } : {}),
    websiteId: lease.websiteId,
    holder: { type: lease.holderType, id: lease.holderId, label: lease.holderLabel },
    heldByYou: mine,
    acquiredAt: iso(lease.acquiredAt),
    expiresAt: iso(lease.expiresAt),
  };
}

function heldByOther(lease: LeaseRecord): ApiError {
  return new ApiError(
    "conflict",
    `The edit lease of website '${lease.websiteId}' is held by ${describeHolder(lease)} until ${iso(lease.expiresAt)}.`,
    {
      suggestion: `Acquire the edit lease with ${ACQUIRE} after the holder releases it or it expires at ${iso(lease.expiresAt)}; coordinate with the holder if you need it sooner.`,
    },
  );
}

function noLease(message: string): ApiError {
  return new ApiError("conflict", message, {
    suggestion: `Acquire the edit lease with ${ACQUIRE} and pass its leaseId to every source-code change.`,
  });
}

/** Takes (or renews, for its holder) the website's edit lease; `conflict` naming the holder when someone else has it. */
export async function acquireLease(
  stores: Stores,
  websiteId: string,
  principal: Principal,
  ttlSeconds: number,
  now: number,
) {
  const result = await stores.leases.acquire(websiteId, holderOf(principal), {
    leaseId: newId(),
    now,
    expiresAt: now + ttlSeconds * 1000,
  });
  if (!result.acquired) throw heldByOther(result.lease);
  return { lease: result.lease, renewed: result.renewed };
}

/** Why `leaseId` does not let `principal` change the draft: always a `conflict` that points at lease.acquire. */
function explain(
  current: LeaseRecord | undefined,
  websiteId: string,
  leaseId: string | undefined,
  principal: Principal,
  now: number,
): ApiError {
  const live = current && current.expiresAt > now ? current : undefined;
  const mine = live && isHeldBy(live, holderOf(principal));
  if (live && !mine) return heldByOther(live);
  if (leaseId === undefined) {
    return noLease(
      mine
        ? `leaseId is missing: changes to the draft of website '${websiteId}' need the id of your live edit lease.`
        : `No edit lease is held on website '${websiteId}'; changes to its draft need one.`,
    );
  }
  if (current && current.leaseId === leaseId && current.expiresAt <= now) {
    return noLease(`Edit lease '${leaseId}' of website '${websiteId}' expired at ${iso(current.expiresAt)}.`);
  }
  return noLease(
    `Edit lease '${leaseId}' is not live on website '${websiteId}' (released, expired or replaced).`,
  );
}

/**
 * The caller's live lease on the website, locked until the mutation's transaction ends; `conflict` when the
 * lease is missing, expired, released or someone else's.
 */
export async function requireLease(
  stores: Stores,
  websiteId: string,
  leaseId: string | undefined,
  principal: Principal,
  now: number,
): Promise<LeaseRecord> {
  const held =
    leaseId === undefined
      ? undefined
      : await stores.leases.hold(websiteId, leaseId, holderOf(principal), now);
  if (held) return held;
  throw explain(await stores.leases.get(websiteId), websiteId, leaseId, principal, now);
}

export async function renewLease(
  stores: Stores,
  websiteId: string,
  leaseId: string,
  principal: Principal,
  ttlSeconds: number,
  now: number,
): Promise<LeaseRecord> {
  const renewed = await stores.leases.renew(
    websiteId,
    leaseId,
    holderOf(principal),
    now,
    now + ttlSeconds * 1000,
  );
  if (renewed) return renewed;
  throw explain(await stores.leases.get(websiteId), websiteId, leaseId, principal, now);
}

/** Ends the caller's lease; releasing one that already ended is not an error (`released: false`). */
export async function releaseLease(
  stores: Stores,
  websiteId: string,
  leaseId: string,
  principal: Principal,
): Promise<boolean> {
  if (await stores.leases.release(websiteId, leaseId, holderOf(principal))) return true;
  const current = await stores.leases.get(websiteId);
  if (current && current.leaseId === leaseId) {
    throw new ApiError(
      "conflict",
      `Edit lease '${leaseId}' is held by ${describeHolder(current)}; only its holder can release it.`,
      { suggestion: "Wait for the holder to release it or for it to expire." },
    );
  }
  return false;
}
