import { and, desc, eq, gt, isNotNull, isNull, lte, type SQL } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { after } from "./keyset.ts";

/** An invitation to an organization (`websiteId` null) or to edit one website. Only the token's SHA-256 is stored. */
export type InvitationRecord = Tables["invitations"]["$inferSelect"];

export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

export interface InvitationListFilter {
  organizationId: string;
  websiteId?: string;
  status?: InvitationStatus;
  email?: string;
  /** The time `pending` and `expired` are judged at. */
  now: number;
  after?: KeysetPosition;
  limit: number;
}

export type InvitationPatch = Partial<
  Pick<
    InvitationRecord,
    "tokenHash" | "expiresAt" | "lastSentAt" | "sendCount" | "acceptedAt" | "acceptedByUserId" | "revokedAt"
  >
> & { updatedAt: number };

/** Invitations, newest first. */
export interface InvitationStore {
  insert(record: InvitationRecord): Promise<void>;
  get(id: string): Promise<InvitationRecord | undefined>;
  findByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  list(filter: InvitationListFilter): Promise<InvitationRecord[]>;
  update(id: string, patch: InvitationPatch): Promise<void>;
  /** Revokes the open invitations to edit a website (when the website is deleted). */
  revokeForWebsite(websiteId: string, at: number): Promise<void>;
  /** Marks an open invitation accepted; false when it was accepted or revoked meanwhile (a concurrent accept). */
  markAccepted(id: string, userId: string, at: number): Promise<boolean>;
}

/** The status of an invitation at `now`. */
export function invitationStatus(record: InvitationRecord, now: number): InvitationStatus {
  if (record.acceptedAt !== null) return "accepted";
  if (record.revokedAt !== null) return "revoked";
  return record.expiresAt <= now ? "expired" : "pending";
}

export function invitationStore(db: Db, t: Tables): InvitationStore {
  const i = t.invitations;
  const statusWhere = (status: InvitationStatus, now: number): SQL | undefined => {
    const open = and(isNull(i.acceptedAt), isNull(i.revokedAt));
    switch (status) {
      case "accepted":
        return isNotNull(i.acceptedAt);
      case "revoked":
        return and(isNull(i.acceptedAt), isNotNull(i.revokedAt));
      case "pending":
        return and(open, gt(i.expiresAt, now));
      case "expired":
        return and(open, lte(i.expiresAt, now));
    }
  };
  return {
    async insert(record) {
      await db.insert(i).values(record);
    },
    async get(id) {
      const [row] = await db.select().from(i).where(eq(i.id, id)).limit(1);
      return row;
    },
    async findByTokenHash(tokenHash) {
      const [row] = await db.select().from(i).where(eq(i.tokenHash, tokenHash)).limit(1);
      return row;
    },
    async list(filter) {
      return db
        .select()
        .from(i)
        .where(
          and(
            eq(i.organizationId, filter.organizationId),
            filter.websiteId === undefined ? undefined : eq(i.websiteId, filter.websiteId),
            filter.status === undefined ? undefined : statusWhere(filter.status, filter.now),
            filter.email === undefined ? undefined : eq(i.email, filter.email.toLowerCase()),
            after(i.createdAt, i.id, filter.after),
          ),
        )
        .orderBy(desc(i.createdAt), desc(i.id))
        .limit(filter.limit);
    },
    async update(id, patch) {
      await db.update(i).set(patch).where(eq(i.id, id));
    },
    async revokeForWebsite(websiteId, at) {
      await db
        .update(t.invitations)
        .set({ revokedAt: at, updatedAt: at })
        .where(
          and(
            eq(t.invitations.websiteId, websiteId),
            isNull(t.invitations.acceptedAt),
            isNull(t.invitations.revokedAt),
          ),
        );
    },
    async markAccepted(id, userId, at) {
      const rows = await db
        .update(i)
        .set({ acceptedAt: at, acceptedByUserId: userId, updatedAt: at })
        .where(and(eq(i.id, id), isNull(i.acceptedAt), isNull(i.revokedAt)))
        .returning({ id: i.id });
      return rows.length === 1;
    },
  };
}
