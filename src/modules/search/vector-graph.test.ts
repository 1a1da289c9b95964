import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { graphConfig, loadGraph, MappedGraph, MAX_BREADTH, newGraph, searchBreadth, type VectorGraph } from './vector-graph.js';
import { GraphSearchers } from './graph-searchers.js';

test('the graph search breadth is 256 up to 128k companies, grows with the directory beyond, and is bounded', () => {
  assert.equal(searchBreadth(0), 256);
  assert.equal(searchBreadth(100_000), 256);
  assert.equal(searchBreadth(300_000), 1024);
  assert.equal(searchBreadth(1_000_000), 2048, 'the breadth measured to give recall@10 0.985 at 1M');
  assert.equal(searchBreadth(100_000_000), MAX_BREADTH);
});

test('a graph mapped from its file takes writes beside it, answers with them, and saves them into a new file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-mapped-'));
  try {
    const D = 16;
    const rows = new Map<number, Float32Array>();
    const random = () => Float32Array.from({ length: D }, () => Math.random() - 0.5);
    const graph = newGraph(D, { expansion_add: 64, expansion_search: 64 });
    for (let slot = 0; slot < 500; slot++) {
      rows.set(slot, random());
      graph.add(BigInt(slot), rows.get(slot)!);
    }
    const file = path.join(dir, 'graph.usearch');
    graph.save(file);
    const mapped = new MappedGraph(file, graphConfig(D, { expansion_add: 64, expansion_search: 64 }));
    const nearest = (g: VectorGraph, v: Float32Array, k = 1) => [...g.search(v, k, 1).keys].map(Number);
    assert.equal(mapped.size(), 500);
    assert.deepEqual(nearest(mapped, rows.get(7)!), [7]);

    // removed: gone from answers and from the count; written again: found at its new place, once; added: found
    mapped.remove(3n);
    rows.delete(3);
    rows.set(7, random());
    mapped.remove(7n);
    mapped.add(7n, rows.get(7)!);
    rows.set(900, random());
    mapped.add(900n, rows.get(900)!);
    assert.equal(mapped.size(), 500);
    assert.ok(!mapped.contains(3n) && mapped.contains(7n) && mapped.contains(900n));
    assert.deepEqual(nearest(mapped, rows.get(7)!), [7]);
    assert.deepEqual(nearest(mapped, rows.get(900)!), [900]);
    const answers = nearest(mapped, rows.get(10)!, 600);
    assert.equal(new Set(answers).size, answers.length, 'no slot twice');
    assert.ok(!answers.includes(3));
    assert.equal(mapped.writes, 3);

    // saved: the file holds the graph with its writes, read back into memory
    const saved = path.join(dir, 'saved.usearch');
    mapped.save(saved, (slot) => rows.get(slot)!);
    const back = loadGraph(saved, D, 500);
    assert.equal(back.size(), 500);
    for (const slot of [7, 900, 42]) assert.deepEqual(nearest(back, rows.get(slot)!), [slot]);
    assert.ok(!back.contains(3n));

    // no writes: the saved file is the mapped one under a second name
    const again = new MappedGraph(saved, graphConfig(D, { expansion_add: 64, expansion_search: 64 }));
    const copy = path.join(dir, 'copy.usearch');
    again.save(copy, () => assert.fail('no row is read'));
    assert.deepEqual(fs.readFileSync(copy), fs.readFileSync(saved));

    // its name removed (another instance's newer snapshot replaced it): the file it maps still saves, writes and all
    fs.rmSync(saved);
    again.save(path.join(dir, 'unchanged.usearch'), () => assert.fail('no row is read'));
    rows.set(901, random());
    again.add(901n, rows.get(901)!);
    const after = path.join(dir, 'after.usearch');
    again.save(after, (slot) => rows.get(slot)!);
    const reread = loadGraph(after, D, 501);
    assert.equal(reread.size(), 501);
    assert.deepEqual(nearest(reread, rows.get(901)!), [901]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a mapped graph searched on worker threads answers as on the main thread, writes included, its file renamed or not', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-searchers-'));
  const searchers = new GraphSearchers(2);
  try {
    const D = 16;
    const config = graphConfig(D, { expansion_add: 64, expansion_search: 64 });
    const rows = new Map<number, Float32Array>();
    const random = () => Float32Array.from({ length: D }, () => Math.random() - 0.5);
    const graph = newGraph(D, { expansion_add: 64, expansion_search: 64 });
    for (let slot = 0; slot < 400; slot++) {
      rows.set(slot, random());
      graph.add(BigInt(slot), rows.get(slot)!);
    }
    const file = path.join(dir, 'graph.usearch');
    graph.save(file);
    const mapped = new MappedGraph(file, config, searchers);
    const same = async (v: Float32Array, k: number) => {
      const here = mapped.search(v, k, 1);
      const there = await mapped.searchAsync(v, k);
      assert.deepEqual([...there.keys], [...here.keys]);
      assert.deepEqual([...there.distances], [...here.distances]);
      assert.ok(there.micros >= 0);
      return [...there.keys].map(Number);
    };
    // several at once: each answer goes back to its own search
    const queries = [...rows.values()].slice(0, 20);
    const answers = await Promise.all(queries.map((v) => mapped.searchAsync(v, 1)));
    answers.forEach((a, i) => assert.equal(Number(a.keys[0]), i));
    mapped.remove(5n);
    rows.set(950, random());
    mapped.add(950n, rows.get(950)!);
    assert.ok(!(await same(rows.get(5)!, 50)).includes(5), 'removed since the file was saved');
    assert.deepEqual((await same(rows.get(950)!, 1)), [950], 'added since');
    // another instance's newer snapshot removed the file's name before a worker first read it: it still reads it
    const unread = new MappedGraph(file, config, searchers);
    fs.rmSync(file);
    const answered = searchers.answered;
    assert.equal(Number((await unread.searchAsync(rows.get(9)!, 1)).keys[0]), 9);
    assert.deepEqual(await same(rows.get(9)!, 1), [9]);
    assert.equal(searchers.answered, answered + 2, 'answered by the workers, not on this thread after a failure');
    assert.ok(searchers.usable);
  } finally {
    await searchers.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a graph search whose worker fails is answered on the main thread, and so is every later one', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentpages-searchers-'));
  const searchers = new GraphSearchers(1);
  try {
    const D = 8;
    const graph = newGraph(D, { expansion_add: 32, expansion_search: 32 });
    const rows = Array.from({ length: 50 }, () => Float32Array.from({ length: D }, () => Math.random() - 0.5));
    rows.forEach((v, slot) => graph.add(BigInt(slot), v));
    const file = path.join(dir, 'graph.usearch');
    graph.save(file);
    const mapped = new MappedGraph(file, graphConfig(D, { expansion_add: 32, expansion_search: 32 }), searchers);
    assert.equal(Number((await mapped.searchAsync(rows[3]!, 1)).keys[0]), 3);
    // the worker goes away (a crash): the pool stops, the search is still answered
    await (searchers as unknown as { workers: { worker: { terminate(): Promise<number> } }[] }).workers[0]!.worker.terminate();
    assert.equal(searchers.usable, false);
    assert.equal(Number((await mapped.searchAsync(rows[4]!, 1)).keys[0]), 4);
    await assert.rejects(searchers.search(1, file, graphConfig(D), rows[0]!, 1));
  } finally {
    await searchers.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
