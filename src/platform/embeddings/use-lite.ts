import fs from 'node:fs';
import path from 'node:path';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import type { Sgemm } from '../native.js';
import { MODEL_DIR, weightsByName } from './use-lite-weights.js';

/**
 * The bundled Universal Sentence Encoder lite (a two-layer transformer, 8k SentencePiece
 * vocabulary, 512 dimensions), evaluated directly from its weights instead of through the
 * TensorFlow.js graph: the graph runs ~300 kernels per call, whose fixed cost dominated a short
 * query (about 12-18 ms); this forward pass does the same arithmetic in a handful of matrix
 * products (native when the kernels are built: platform/native.ts) and gives the same vectors
 * (cosine ≥ 0.99999 with the graph's, checked by use-lite.test.ts).
 *
 * The graph's quirks are kept as they are, since documents already stored were embedded by it:
 * the token embedding is added twice (once by the timing-signal branch), the first layer's
 * residual goes through a 256→512 projection, sequences are clipped to 128 tokens, and the
 * pooled vector is the mean over real tokens, then tanh(W·x + b), then L2-normalised.
 */

/** The same product in JavaScript (tests compare the kernels with it). */
export const jsSgemm: Sgemm = (a, n, k, w, m, bias, out, relu) => {
  for (let i = 0; i < n; i++) {
    const row = i * m;
    if (bias) out.set(bias, row);
    else out.fill(0, row, row + m);
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p]!;
      if (x === 0) continue;
      const wRow = p * m;
      for (let j = 0; j < m; j++) out[row + j]! += x * w[wRow + j]!;
    }
    if (relu) for (let j = 0; j < m; j++) if (out[row + j]! < 0) out[row + j] = 0;
  }
};

interface Layer {
  inDim: number;
  lnScale: Float32Array;
  lnBias: Float32Array;
  qkv: Float32Array;
  qkvBias: Float32Array;
  qScale: number;
  out: Float32Array;
  outBias: Float32Array;
  /** Layer 0 only: projects the 256-wide input to the 512-wide residual stream. */
  residual?: { w: Float32Array; b: Float32Array };
  ffnLnScale: Float32Array;
  ffnLnBias: Float32Array;
  ffn1: Float32Array;
  ffn1Bias: Float32Array;
  ffn2: Float32Array;
  ffn2Bias: Float32Array;
}

const A = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const S = 'module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/';
const K = 'module/Encoder_en/KonaTransformer/Encode/';
const WIDTH = 512;
const FFN_WIDTH = 1536;
/** Tokens evaluated together at most: 256 rows keep the widest intermediate array at 1.5 MB. */
const STACK_ROWS = 256;

export class UseLiteEncoder {
  readonly dimensions = WIDTH;
  private readonly tokenizer: EmbeddingsModel['tokenizer'];
  private readonly embeddings: Float32Array;
  private readonly embeddingWidth: number;
  private readonly invTimescales: Float32Array;
  private readonly layers: Layer[];
  private readonly heads: number;
  private readonly epsilon: number;
  private readonly maxTokens: number;
  private readonly tanhW: Float32Array;
  private readonly tanhB: Float32Array;
  private readonly l2Epsilon: number;

  constructor(
    private readonly sgemm: Sgemm,
    dir = MODEL_DIR,
    /** The weight groups in shared memory (readSharedWeightGroups): every worker views the same bytes. */
    sharedWeights?: ArrayBufferLike[],
  ) {
    const weights = weightsByName(dir, sharedWeights);
    const f = (name: string): Float32Array => {
      const v = weights.get(name);
      if (!(v instanceof Float32Array)) throw new Error(`model weight missing: ${name}`);
      return v;
    };
    const scalar = (name: string): number => {
      const v = weights.get(name);
      if (!v || v.length !== 1) throw new Error(`model constant missing: ${name}`);
      return v[0]!;
    };
    const vocabulary = JSON.parse(fs.readFileSync(path.join(dir, 'vocab.json'), 'utf8')) as unknown;
    // The package's own SentencePiece tokenizer (the model is not used: only its vocabulary).
    this.tokenizer = new EmbeddingsModel({ vocabulary, model: undefined } as unknown as ConstructorParameters<typeof EmbeddingsModel>[0]).tokenizer;
    this.embeddings = f('module/Embeddings_en');
    this.invTimescales = f(`${S}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`);
    // The timing signal (sines and cosines, one pair per timescale) is added to the token embedding: same width.
    this.embeddingWidth = 2 * this.invTimescales.length;
    this.epsilon = scalar(`${S}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`);
    this.heads = scalar(`${S}Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`);
    this.maxTokens = scalar('module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y');
    this.tanhW = f('module/Encoder_en/hidden_layers/tanh_layer_0/weights');
    this.tanhB = f('module/Encoder_en/hidden_layers/tanh_layer_0/bias');
    this.l2Epsilon = scalar('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');
    this.layers = [0, 1].map((l) => {
      const L = `${A}Layer_${l}/TransformerLayer/`;
      const qkv = f(`${K}Layer_${l}/TransformerLayer/MultiheadAttention/qkv_transform_single/kernel/part_0`);
      const inDim = qkv.length / (l === 0 ? 3 * this.embeddingWidth : 3 * WIDTH);
      return {
        inDim,
        lnScale: f(`${L}layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`),
        lnBias: f(`${L}layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`),
        qkv,
        qkvBias: f(`${L}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`),
        qScale: scalar(`${S}Layer_${l}/TransformerLayer/MultiheadAttention/mul/y`),
        out: f(`${K}Layer_${l}/TransformerLayer/MultiheadAttention/output_transform_single/kernel/part_0`),
        outBias: f(`${L}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`),
        residual: l === 0 ? { w: f(`${L}dense/kernel/ConcatPartitions/concat`), b: f(`${L}dense/bias/ConcatPartitions/concat`) } : undefined,
        ffnLnScale: f(`${L}FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`),
        ffnLnBias: f(`${L}FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`),
        ffn1: f(`${S}Layer_${l}/TransformerLayer/FFN/conv1/Tensordot/Reshape_1`),
        ffn1Bias: f(`${L}FFN/conv1/bias/ConcatPartitions/concat`),
        ffn2: f(`${S}Layer_${l}/TransformerLayer/FFN/conv2/Tensordot/Reshape_1`),
        ffn2Bias: f(`${L}FFN/conv2/bias/ConcatPartitions/concat`),
      };
    });
  }

  /**
   * Unit-length embeddings, one Float32Array of `dimensions` per text. The texts' tokens go through the dense layers
   * as one stack of rows: a short query is bound by reading the 21 MB of weights, not by arithmetic, so a batch of
   * queries (the provider's micro-batch under load) reads them once instead of once per text. Every row is computed
   * as it would be alone (row-wise products, attention within its own text), so each vector is the one its text gets
   * by itself.
   */
  embed(texts: string[]): Float32Array[] {
    const sequences = texts.map((t) => this.tokenizer.encode(t).slice(0, this.maxTokens));
    const out: Float32Array[] = [];
    // Stacks of at most STACK_ROWS tokens (a text is never split): the weights are read once per stack while the
    // intermediate arrays stay small (a batch of documents would otherwise take tens of MB per worker).
    for (let from = 0; from < sequences.length;) {
      let to = from + 1;
      let rows = sequences[from]!.length;
      while (to < sequences.length && rows + sequences[to]!.length <= STACK_ROWS) rows += sequences[to++]!.length;
      const stack = sequences.slice(from, to);
      const pooled = new Float32Array(stack.length * WIDTH);
      this.encodeTokens(stack, pooled);
      stack.forEach((ids, b) => {
        if (ids.length > 0) for (let j = 0; j < WIDTH; j++) pooled[b * WIDTH + j]! /= ids.length;
      });
      out.push(...this.head(pooled, stack.length));
      from = to;
    }
    return out;
  }

  private layerNorm(x: Float32Array, n: number, d: number, scale: Float32Array, bias: Float32Array): Float32Array {
    const out = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let mean = 0;
      for (let j = 0; j < d; j++) mean += x[o + j]!;
      mean /= d;
      let variance = 0;
      for (let j = 0; j < d; j++) variance += (x[o + j]! - mean) ** 2;
      const r = 1 / Math.sqrt(variance / d + this.epsilon);
      for (let j = 0; j < d; j++) out[o + j] = scale[j]! * r * (x[o + j]! - mean) + bias[j]!;
    }
    return out;
  }

  /**
   * Multi-head self-attention over one sequence (no padding: every position attends to all):
   * per head, scores = (q·scale)·kᵀ and out = softmax(scores)·v, both through the matrix kernel.
   */
  private attention(qkv: Float32Array, n: number, d: number, qScale: number): Float32Array {
    const depth = d / this.heads;
    const out = new Float32Array(n * d);
    const q = new Float32Array(n * depth);
    const kT = new Float32Array(depth * n);
    const v = new Float32Array(n * depth);
    const scores = new Float32Array(n * n);
    const head = new Float32Array(n * depth);
    for (let h = 0; h < this.heads; h++) {
      for (let i = 0; i < n; i++) {
        const row = i * 3 * d + h * depth;
        for (let t = 0; t < depth; t++) {
          q[i * depth + t] = qkv[row + t]! * qScale;
          kT[t * n + i] = qkv[row + d + t]!;
          v[i * depth + t] = qkv[row + 2 * d + t]!;
        }
      }
      this.sgemm(q, n, depth, kT, n, null, scores, false);
      for (let i = 0; i < n; i++) {
        const o = i * n;
        let max = -Infinity;
        for (let j = 0; j < n; j++) if (scores[o + j]! > max) max = scores[o + j]!;
        let sum = 0;
        for (let j = 0; j < n; j++) sum += scores[o + j] = Math.exp(scores[o + j]! - max);
        for (let j = 0; j < n; j++) scores[o + j]! /= sum;
      }
      this.sgemm(scores, n, n, v, depth, null, head, false);
      for (let i = 0; i < n; i++) out.set(head.subarray(i * depth, (i + 1) * depth), i * d + h * depth);
    }
    return out;
  }

  /** Adds the final states of each text's tokens (at most maxTokens each) into its row of `pooled`. */
  private encodeTokens(sequences: number[][], pooled: Float32Array): void {
    const starts: number[] = [];
    let n = 0;
    for (const ids of sequences) {
      starts.push(n);
      n += ids.length;
    }
    if (n === 0) return;
    const e = this.embeddingWidth;
    const half = this.invTimescales.length;
    let x: Float32Array = new Float32Array(n * e);
    sequences.forEach((ids, b) => {
      for (let i = 0; i < ids.length; i++) {
        const at = (starts[b]! + i) * e;
        const row = this.embeddings.subarray(ids[i]! * e, (ids[i]! + 1) * e);
        // The timing signal counts positions within the text.
        for (let j = 0; j < half; j++) {
          const angle = Math.fround(i * this.invTimescales[j]!);
          x[at + j] = row[j]! + (row[j]! + Math.sin(angle));
          x[at + half + j] = row[half + j]! + (row[half + j]! + Math.cos(angle));
        }
      }
    });
    for (const layer of this.layers) {
      const d = layer.inDim;
      const h = this.layerNorm(x, n, d, layer.lnScale, layer.lnBias);
      const qkv = new Float32Array(n * 3 * d);
      this.sgemm(h, n, d, layer.qkv, 3 * d, layer.qkvBias, qkv, false);
      // Attention stays within each text.
      const att = new Float32Array(n * d);
      sequences.forEach((ids, b) => {
        if (ids.length === 0) return;
        const from = starts[b]!;
        att.set(this.attention(qkv.subarray(from * 3 * d, (from + ids.length) * 3 * d), ids.length, d, layer.qScale), from * d);
      });
      const y = new Float32Array(n * WIDTH);
      this.sgemm(att, n, d, layer.out, WIDTH, layer.outBias, y, false);
      if (layer.residual) {
        const r = new Float32Array(n * WIDTH);
        this.sgemm(x, n, d, layer.residual.w, WIDTH, layer.residual.b, r, false);
        for (let i = 0; i < y.length; i++) y[i]! += r[i]!;
      } else {
        for (let i = 0; i < y.length; i++) y[i]! += x[i]!;
      }
      const h2 = this.layerNorm(y, n, WIDTH, layer.ffnLnScale, layer.ffnLnBias);
      const f1 = new Float32Array(n * FFN_WIDTH);
      this.sgemm(h2, n, WIDTH, layer.ffn1, FFN_WIDTH, layer.ffn1Bias, f1, true);
      const f2 = new Float32Array(n * WIDTH);
      this.sgemm(f1, n, FFN_WIDTH, layer.ffn2, WIDTH, layer.ffn2Bias, f2, false);
      for (let i = 0; i < y.length; i++) y[i]! += f2[i]!;
      x = y;
    }
    sequences.forEach((ids, b) => {
      const o = b * WIDTH;
      for (let i = starts[b]!; i < starts[b]! + ids.length; i++) for (let j = 0; j < WIDTH; j++) pooled[o + j]! += x[i * WIDTH + j]!;
    });
  }

  /** Each text's pooled mean through the tanh layer, L2-normalised. */
  private head(pooled: Float32Array, count: number): Float32Array[] {
    const hidden = new Float32Array(count * WIDTH);
    this.sgemm(pooled, count, WIDTH, this.tanhW, WIDTH, this.tanhB, hidden, false);
    const out: Float32Array[] = [];
    for (let b = 0; b < count; b++) {
      const v = hidden.slice(b * WIDTH, (b + 1) * WIDTH);
      let sq = 0;
      for (let j = 0; j < WIDTH; j++) sq += (v[j] = Math.tanh(v[j]!)) ** 2;
      const r = 1 / Math.sqrt(Math.max(sq, this.l2Epsilon));
      for (let j = 0; j < WIDTH; j++) v[j]! *= r;
      out.push(v);
    }
    return out;
  }
}
