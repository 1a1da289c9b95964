import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INITIAL_STATUS, nextStatus, PROPOSAL_STATUSES, RESPONSE_ACTIONS, type ProposalStatus } from './proposal-status.js';

describe('proposal status machine', () => {
  it('starts pending', () => assert.equal(INITIAL_STATUS, 'pending'));

  it('an agent reply makes every status pending', () => {
    for (const s of PROPOSAL_STATUSES) assert.deepEqual(nextStatus(s, { by: 'agent', kind: 'reply' }), { ok: true, status: 'pending' });
  });

  it('maps company actions from open states', () => {
    const expected = { approve: 'approved', reject: 'rejected', respond: 'responded' } as const;
    for (const from of ['pending', 'responded'] as ProposalStatus[]) {
      for (const action of RESPONSE_ACTIONS) {
        assert.deepEqual(nextStatus(from, { by: 'company', action }), { ok: true, status: expected[action] });
      }
    }
  });

  it('refuses company actions once decided, until the agent replies', () => {
    for (const from of ['approved', 'rejected'] as ProposalStatus[]) {
      for (const action of RESPONSE_ACTIONS) {
        const t = nextStatus(from, { by: 'company', action });
        assert.equal(t.ok, false);
        assert.match((t as { reason: string }).reason, new RegExp(from));
      }
    }
  });

  it('runs the ping-pong', () => {
    let s: ProposalStatus = INITIAL_STATUS;
    const step = (e: Parameters<typeof nextStatus>[1]) => {
      const t = nextStatus(s, e);
      assert.ok(t.ok);
      s = t.status;
      return s;
    };
    assert.equal(step({ by: 'company', action: 'respond' }), 'responded');
    assert.equal(step({ by: 'agent', kind: 'reply' }), 'pending');
    assert.equal(step({ by: 'company', action: 'approve' }), 'approved');
    assert.equal(step({ by: 'agent', kind: 'reply' }), 'pending');
    assert.equal(step({ by: 'company', action: 'reject' }), 'rejected');
  });
});
