import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCommonEnglishWord } from './english-words.js';

describe('common English words', () => {
  it('knows words of every dialect, not misspellings nor one dialect\'s spelling', () => {
    for (const w of ['chess', 'tuner', 'plumber', 'firms']) assert.equal(isCommonEnglishWord(w), true, w);
    for (const w of ['plumer', 'moble', 'cockroche']) assert.equal(isCommonEnglishWord(w), false, `${w} is a misspelling`);
    assert.equal(isCommonEnglishWord('colour'), false, 'British only: repaired to the directory\'s spelling');
  });
});
