/**
 * The proposal status machine (spec 3.1), in one place. Every status change goes through
 * `nextStatus`; the service applies it while holding the proposal's row lock.
 *
 *   created                               → pending
 *   agent reply        from any status    → pending   (replying before the company answered is
 *                                                      allowed: it adds to the thread, stays pending)
 *   company approve    pending|responded  → approved
 *   company reject     pending|responded  → rejected
 *   company respond    pending|responded  → responded (a custom answer; the company may send
 *                                                      several before the agent replies)
 *   company anything   approved|rejected  → refused (409): the decision stands until the agent
 *                                                      replies, which reopens the proposal
 *
 * Soft delete and restore (owner) never change the status.
 */
export const PROPOSAL_STATUSES = ['pending', 'approved', 'rejected', 'responded'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const RESPONSE_ACTIONS = ['approve', 'reject', 'respond'] as const;
export type ResponseAction = (typeof RESPONSE_ACTIONS)[number];

export type ProposalEvent = { by: 'agent'; kind: 'reply' } | { by: 'company'; action: ResponseAction };

export const INITIAL_STATUS: ProposalStatus = 'pending';

export type Transition = { ok: true; status: ProposalStatus } | { ok: false; reason: string };

const actionResult: Record<ResponseAction, ProposalStatus> = {
  approve: 'approved',
  reject: 'rejected',
  respond: 'responded',
};

export function nextStatus(current: ProposalStatus, event: ProposalEvent): Transition {
  if (event.by === 'agent') return { ok: true, status: 'pending' };
  if (current === 'approved' || current === 'rejected') {
    return { ok: false, reason: `This proposal is already ${current}; it reopens when the agent replies` };
  }
  return { ok: true, status: actionResult[event.action] };
}
