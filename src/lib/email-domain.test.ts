import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emailMayClaimWebsite, nameFromDomain } from './email-domain.js';
import { hashPassword, verifyPassword } from './password.js';
import { createWindowLimiter } from './rate-window.js';

describe('email domain vs website domain', () => {
  it('allows the same domain and its sub-domains, never the parent or public providers', () => {
    assert.equal(emailMayClaimWebsite('jane@acme.com', 'acme.com'), true);
    assert.equal(emailMayClaimWebsite('Jane@ACME.com', 'shop.acme.com'), true);
    assert.equal(emailMayClaimWebsite('jane@mail.acme.com', 'acme.com'), false);
    assert.equal(emailMayClaimWebsite('jane@acme.com', 'notacme.com'), false);
    assert.equal(emailMayClaimWebsite('jane@acme.com', 'acme.com.evil.io'), false);
    assert.equal(emailMayClaimWebsite('jane@gmail.com', 'gmail.com'), false);
    assert.equal(emailMayClaimWebsite('jane@yahoo.co.uk', 'yahoo.co.uk'), false);
    assert.equal(emailMayClaimWebsite('x@mailinator.com', 'mailinator.com'), false);
  });

  it('never treats IP literals, numeric or single-label hosts as claimable (issue 11 finding 7)', () => {
    assert.equal(emailMayClaimWebsite('a@0.0.1', '127.0.0.1'), false);
    assert.equal(emailMayClaimWebsite('a@0.0.1', '10.0.0.1'), false);
    assert.equal(emailMayClaimWebsite('a@[127.0.0.1]', '127.0.0.1'), false);
    assert.equal(emailMayClaimWebsite('a@localhost', 'localhost'), false);
    assert.equal(emailMayClaimWebsite('a@acme.123', 'shop.acme.123'), false);
    assert.equal(emailMayClaimWebsite('a@acme.com', 'shop.acme.com'), true);
  });

  it('derives a readable name', () => {
    assert.equal(nameFromDomain('acme-tools.co.uk'), 'Acme Tools');
    assert.equal(nameFromDomain('shop.acme.com'), 'Shop Acme');
    assert.equal(nameFromDomain('acme.io'), 'Acme');
  });
});

describe('window limiter', () => {
  it('counts per key and resets after the window', () => {
    let now = 0;
    const l = createWindowLimiter({ limit: 2, windowMs: 1000, now: () => now });
    assert.equal(l.hit('a').ok, true);
    assert.equal(l.hit('a').ok, true);
    assert.equal(l.hit('b').ok, true);
    const third = l.hit('a');
    assert.equal(third.ok, false);
    assert.equal(third.retryAfterSeconds, 1);
    assert.equal(l.blocked('a').blocked, true);
    now = 1000;
    assert.equal(l.blocked('a').blocked, false);
    assert.equal(l.hit('a').ok, true);
  });
});

describe('password hashing', () => {
  it('verifies the right password only and salts each hash', async () => {
    const h1 = await hashPassword('s3cret password');
    const h2 = await hashPassword('s3cret password');
    assert.notEqual(h1, h2);
    assert.equal(await verifyPassword('s3cret password', h1), true);
    assert.equal(await verifyPassword('wrong', h1), false);
    assert.equal(await verifyPassword('x', 'garbage'), false);
  });
});
