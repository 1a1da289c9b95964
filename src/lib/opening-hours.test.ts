import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isOpenAt, normalizeOpeningHours, openState, type OpeningHours } from './opening-hours.js';

const weekdays9to17: OpeningHours = {
  monday: [['09:00', '17:00']], tuesday: [['09:00', '17:00']], wednesday: [['09:00', '17:00']],
  thursday: [['09:00', '17:00']], friday: [['09:00', '17:00']],
};

describe('opening hours', () => {
  it('reads the schedule in the company\'s zone, not the server\'s', () => {
    // 2026-11-27 is a Friday. 08:30 UTC is 09:30 in Berlin (open), 03:30 in New York (closed).
    const at = new Date('2026-11-27T08:30:00Z');
    assert.equal(isOpenAt(weekdays9to17, 'Europe/Berlin', at), true);
    assert.equal(isOpenAt(weekdays9to17, 'America/New_York', at), false);
    assert.deepEqual(openState(weekdays9to17, 'Europe/Berlin', at), { open_now: true, next_change_at: '2026-11-27T17:00:00+01:00' });
    assert.deepEqual(openState(weekdays9to17, 'America/New_York', at), { open_now: false, next_change_at: '2026-11-27T09:00:00-05:00' });
  });

  it('follows daylight-saving changes of the company\'s zone', () => {
    // Berlin moves to summer time on Sunday 2026-03-29: Monday opens at 09:00 +02:00, 07:00 UTC.
    assert.deepEqual(openState(weekdays9to17, 'Europe/Berlin', new Date('2026-03-28T12:00:00Z')), { open_now: false, next_change_at: '2026-03-30T09:00:00+02:00' });
    assert.equal(isOpenAt(weekdays9to17, 'Europe/Berlin', new Date('2026-03-30T07:30:00Z')), true);
    assert.equal(isOpenAt(weekdays9to17, 'Europe/Berlin', new Date('2026-03-27T07:30:00Z')), false, 'still winter time the Friday before: 08:30 local');
    // New York falls back on Sunday 2026-11-01: Monday 09:00 is 14:00 UTC, the Friday before 13:00 UTC.
    assert.equal(isOpenAt(weekdays9to17, 'America/New_York', new Date('2026-11-02T13:30:00Z')), false);
    assert.equal(isOpenAt(weekdays9to17, 'America/New_York', new Date('2026-10-30T13:30:00Z')), true);
  });

  it('runs a range past midnight and merges ranges that touch', () => {
    const bar: OpeningHours = { friday: [['18:00', '02:00']], saturday: [['18:00', '24:00']], sunday: [['00:00', '03:00']] };
    assert.equal(isOpenAt(bar, 'Europe/London', new Date('2026-11-28T01:30:00Z')), true, 'Friday night, after midnight');
    assert.equal(isOpenAt(bar, 'Europe/London', new Date('2026-11-28T02:30:00Z')), false);
    // Saturday 18:00 to Sunday 03:00 is one opening.
    assert.deepEqual(openState(bar, 'Europe/London', new Date('2026-11-28T20:00:00Z')), { open_now: true, next_change_at: '2026-11-29T03:00:00+00:00' });
  });

  it('applies exceptions: a holiday closes a normal day, special hours replace it', () => {
    const hours: OpeningHours = { ...weekdays9to17, exceptions: [{ date: '2026-12-25', closed: true, note: 'Christmas' }, { date: '2026-12-24', hours: [['09:00', '12:00']] }] };
    assert.equal(isOpenAt(hours, 'Europe/Berlin', new Date('2026-12-25T10:00:00Z')), false, 'Christmas is a Friday, closed');
    assert.equal(isOpenAt(hours, 'Europe/Berlin', new Date('2026-12-24T10:00:00Z')), true);
    assert.equal(isOpenAt(hours, 'Europe/Berlin', new Date('2026-12-24T12:00:00Z')), false, '13:00 local, after the short day');
    assert.deepEqual(openState(hours, 'Europe/Berlin', new Date('2026-12-24T12:00:00Z')), { open_now: false, next_change_at: '2026-12-28T09:00:00+01:00' });
  });

  it('says when nothing changes: always open, or no hours', () => {
    const always = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [['00:00', '24:00']]])) as OpeningHours;
    assert.deepEqual(openState(always, 'Asia/Tokyo', new Date()), { open_now: true, next_change_at: null });
    assert.deepEqual(openState({}, 'Asia/Tokyo', new Date()), { open_now: false, next_change_at: null });
  });

  it('normalises and refuses bad schedules with a sentence and a path', () => {
    const ok = normalizeOpeningHours({ monday: [['13:00', '17:00'], ['08:00', '12:00']], tuesday: [], exceptions: [{ date: '2026-12-25' }] });
    assert.deepEqual(ok, { hours: { monday: [['08:00', '12:00'], ['13:00', '17:00']], exceptions: [{ date: '2026-12-25', closed: true }] } });
    const bad = [
      [{ mon: [] }, ['mon']],
      [{ monday: [['8:00', '17:00']] }, ['monday', 0]],
      [{ monday: [['25:00', '17:00']] }, ['monday', 0]],
      [{ monday: [['09:00', '09:00']] }, ['monday', 0]],
      [{ exceptions: [{ date: '2026-02-30x' }] }, ['exceptions', 0, 'date']],
      [[], []],
    ] as const;
    for (const [input, path] of bad) {
      const r = normalizeOpeningHours(input);
      assert.ok('problem' in r, JSON.stringify(input));
      assert.deepEqual(r.path, path);
    }
  });
});
