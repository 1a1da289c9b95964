import { jsSgemm, UseLiteEncoder } from './src/platform/embeddings/use-lite.js';
import { loadNativeSgemm } from './src/platform/embeddings/native-sgemm.js';
const native = loadNativeSgemm()!;
// random shapes vs jsSgemm
let worst = 0;
for (let t = 0; t < 300; t++) {
  const n = 1 + Math.floor(Math.random() * 40), k = 1 + Math.floor(Math.random() * 300), m = 1 + Math.floor(Math.random() * 700);
  const a = new Float32Array(n * k).map(() => Math.random() - 0.5), w = new Float32Array(k * m).map(() => Math.random() - 0.5);
  const bias = Math.random() < 0.5 ? null : new Float32Array(m).map(() => Math.random()); const relu = Math.random() < 0.5;
  const o1 = new Float32Array(n * m), o2 = new Float32Array(n * m).fill(NaN);
  jsSgemm(a, n, k, w, m, bias, o1, relu); native(a, n, k, w, m, bias, o2, relu);
  for (let i = 0; i < o1.length; i++) worst = Math.max(worst, Math.abs(o1[i]! - o2[i]!)); if (Number.isNaN(worst)) { console.log('NaN', n, k, m); break; }
}
console.log('worst abs diff', worst);
const enc = new UseLiteEncoder(native);
const doc = 'We are a family-run bakery in Lyon baking sourdough bread and pastries every morning since 1982. ';
for (let i = 0; i < 20; i++) enc.embed(['warm ' + i]);
let t = performance.now(); for (let i = 0; i < 200; i++) enc.embed(['plumber in berlin ' + i]); console.log('native single ms', ((performance.now() - t) / 200).toFixed(3));
t = performance.now(); for (let i = 0; i < 30; i++) enc.embed([doc.repeat(3) + i]); console.log('native doc(3x) ms', ((performance.now() - t) / 30).toFixed(3));
t = performance.now(); for (let i = 0; i < 20; i++) enc.embed([doc.repeat(12) + i]); console.log('native doc(12x) ms', ((performance.now() - t) / 20).toFixed(3));
