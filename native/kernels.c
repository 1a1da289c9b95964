/*
 * The service's numeric kernels (loaded by src/platform/native.ts):
 * - sgemm, for the embedding model's forward pass (src/platform/embeddings/use-lite.ts):
 *   out[n×m] = a[n×k] · w[k×m] + bias[m], optionally clamped at zero. Row-major float32.
 * - dotRows, the dot product of one query with the rows of a float32 matrix that a list of slots
 *   names; dotRowsHalf, the same over rows kept as IEEE half floats (binary16, as Uint16 bits): the
 *   vector index's exact scan and re-scoring (src/modules/search/search-index.ts).
 * - signBitsHalf and nearestBySigns: one bit a component (its sign) for each row, and the rows of a filter whose
 *   bits are nearest a query's by Hamming distance: a large filter's scan reads those first, then re-scores only
 *   the nearest from the rows.
 * - mapFile, an ArrayBuffer whose first bytes are a range of a file mapped privately (copy on write)
 *   and the rest anonymous zeroed room: the index's half-float rows read in place from its snapshot
 *   (src/lib/array-file.ts), so that they sit in the shared page cache, not in the process's own memory.
 * Built by scripts/build-native.mjs with -O3 -march=native; without the build the encoder falls
 * back to the TensorFlow.js graph and the scan to JavaScript. STRIP and BR can be set with -D to
 * tune for another machine.
 */
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#define ROWS 8
#ifndef STRIP
#define STRIP 128
#endif
#ifndef BR
#define BR 8 /* rows per register block: 8 measured best here (4: 20, 6: 41, 8: 43, 12: 34 GMAC/s) */
#endif
#define COLS 128

/* Eight floats as one value (GCC/Clang vector extension; AVX with -march=native), unaligned. */
typedef float v8 __attribute__((vector_size(32), aligned(4)));

/*
 * Register-blocked core: BR rows × 16 columns of the output stay in 2·BR vector registers while
 * p runs over k; each step loads two vectors of w and broadcasts BR values of a.
 */
static void block_rows16(const float *a, int k, const float *w, int m, float *out, const float *bias, int relu) {
  v8 acc[BR][2];
  for (int r = 0; r < BR; r++)
    for (int h = 0; h < 2; h++) {
      v8 b = {0};
      if (bias) b = *(const v8 *)(bias + 8 * h);
      acc[r][h] = b;
    }
  for (int p = 0; p < k; p++) {
    const v8 w0 = *(const v8 *)(w + (size_t)p * m);
    const v8 w1 = *(const v8 *)(w + (size_t)p * m + 8);
    for (int r = 0; r < BR; r++) {
      const float x = a[(size_t)r * k + p];
      acc[r][0] += x * w0;
      acc[r][1] += x * w1;
    }
  }
  for (int r = 0; r < BR; r++)
    for (int h = 0; h < 2; h++) {
      v8 v = acc[r][h];
      if (relu)
        for (int t = 0; t < 8; t++) v[t] = v[t] < 0.0f ? 0.0f : v[t];
      *(v8 *)(out + (size_t)r * m + 8 * h) = v;
    }
}

/* Any shape: a strip of COLS columns, ROWS rows at a time, accumulated in a buffer kept in L1. */
static void generic(const float *a, int n, int k, const float *w, int m, const float *bias, float *out, int relu, int i_from, int j_from) {
  float acc[ROWS][COLS];
  for (int j0 = j_from; j0 < m; j0 += COLS) {
    const int cols = m - j0 < COLS ? m - j0 : COLS;
    for (int i0 = i_from; i0 < n; i0 += ROWS) {
      const int rows = n - i0 < ROWS ? n - i0 : ROWS;
      for (int r = 0; r < rows; r++)
        for (int j = 0; j < cols; j++) acc[r][j] = bias ? bias[j0 + j] : 0.0f;
      for (int p = 0; p < k; p++) {
        const float *wr = w + (size_t)p * m + j0;
        for (int r = 0; r < rows; r++) {
          const float x = a[(size_t)(i0 + r) * k + p];
          float *o = acc[r];
          for (int j = 0; j < cols; j++) o[j] += x * wr[j];
        }
      }
      for (int r = 0; r < rows; r++) {
        float *o = out + (size_t)(i0 + r) * m + j0;
        for (int j = 0; j < cols; j++) o[j] = relu && acc[r][j] < 0.0f ? 0.0f : acc[r][j];
      }
    }
  }
}

static void kernel(const float *a, int n, int k, const float *w, int m, const float *bias, float *out, int relu) {
  const int nb = n - n % BR, m16 = m - m % 16;
  /* Column strips keep the strip of w (k×STRIP floats) in L2 across all row blocks. */
  for (int j0 = 0; j0 < m16; j0 += STRIP) {
    const int j1 = j0 + STRIP < m16 ? j0 + STRIP : m16;
    for (int i = 0; i < nb; i += BR)
      for (int j = j0; j < j1; j += 16)
        block_rows16(a + (size_t)i * k, k, w + j, m, out + (size_t)i * m + j, bias ? bias + j : 0, relu);
  }
  /* The edges: the last n % BR rows (all columns), and the last m % 16 columns of the other rows. */
  if (nb < n) generic(a, n, k, w, m, bias, out, relu, nb, 0);
  /* Rows [0, nb), columns [m16, m). */
  if (m16 < m && nb > 0) generic(a, nb, k, w, m, bias, out, relu, 0, m16);
}

/* The data and element count of a typed array of type `want` (an empty one's data may be NULL); 0 for anything else. */
static int typed_array(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  napi_typedarray_type type;
  return napi_get_typedarray_info(env, v, &type, length, data, NULL, NULL) == napi_ok && type == want;
}

static int floats(napi_env env, napi_value v, float **data, size_t *length) {
  void *raw = NULL;
  const int ok = typed_array(env, v, napi_float32_array, &raw, length);
  *data = (float *)raw;
  return ok;
}

static int integer(napi_env env, napi_value v, int *out) {
  return napi_get_value_int32(env, v, out) == napi_ok && *out >= 0;
}

/* sgemm(a, n, k, w, m, bias | null, out, relu) */
static napi_value sgemm(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  float *a, *w, *bias = NULL, *out;
  size_t la, lw, lb = 0, lo;
  int n, k, m;
  bool relu = false;
  napi_valuetype biasType;
  if (argc < 8 || !floats(env, argv[0], &a, &la) || !integer(env, argv[1], &n) || !integer(env, argv[2], &k) ||
      !floats(env, argv[3], &w, &lw) || !integer(env, argv[4], &m) || !floats(env, argv[6], &out, &lo) ||
      napi_get_value_bool(env, argv[7], &relu) != napi_ok || napi_typeof(env, argv[5], &biasType) != napi_ok) {
    napi_throw_type_error(env, NULL, "sgemm(a, n, k, w, m, bias, out, relu): bad arguments");
    return NULL;
  }
  if (biasType != napi_null && !floats(env, argv[5], &bias, &lb)) {
    napi_throw_type_error(env, NULL, "sgemm: bias must be a Float32Array or null");
    return NULL;
  }
  if (la < (size_t)n * k || lw < (size_t)k * m || lo < (size_t)n * m || (bias && lb < (size_t)m)) {
    napi_throw_range_error(env, NULL, "sgemm: an array is shorter than its dimensions");
    return NULL;
  }
  kernel(a, n, k, w, m, bias, out, relu);
  return NULL;
}

/*
 * out[i] = dot(matrix[slots[i]], q) for i < count; rows of `dims` floats. Sixteen float lanes each
 * sum dims/16 products, then the lanes are added in double (relative error about 1e-7).
 */
static void dot_rows(const float *matrix, int dims, const int *slots, int count, const float *q, double *out) {
  for (int i = 0; i < count; i++) {
    const float *row = matrix + (size_t)slots[i] * dims;
    v8 acc0 = {0}, acc1 = {0};
    int j = 0;
    for (; j + 16 <= dims; j += 16) {
      acc0 += *(const v8 *)(row + j) * *(const v8 *)(q + j);
      acc1 += *(const v8 *)(row + j + 8) * *(const v8 *)(q + j + 8);
    }
    double s = 0;
    for (int t = 0; t < 8; t++) s += (double)acc0[t] + (double)acc1[t];
    for (; j < dims; j++) s += (double)row[j] * q[j];
    out[i] = s;
  }
}

#if defined(__FLT16_MAX__)
/* Eight half floats (binary16), converted to v8 with F16C under -march=native, in software otherwise. */
typedef _Float16 h8 __attribute__((vector_size(16), aligned(2)));

/* dot_rows over rows of `dims` half floats (the query stays float32); the sums as dot_rows'. */
static void dot_rows_half(const uint16_t *matrix, int dims, const int *slots, int count, const float *q, double *out) {
  for (int i = 0; i < count; i++) {
    const uint16_t *row = matrix + (size_t)slots[i] * dims;
    /* The rows of a filter lie far apart: fetch the one after next while this one is summed (the hardware
       prefetcher follows a row, not a jump to the next one). */
    if (i + 2 < count) {
      const char *ahead = (const char *)(matrix + (size_t)slots[i + 2] * dims);
      for (size_t b = 0; b < (size_t)dims * 2; b += 64) __builtin_prefetch(ahead + b, 0, 0);
    }
    v8 acc0 = {0}, acc1 = {0};
    int j = 0;
    for (; j + 16 <= dims; j += 16) {
      h8 a, b;
      memcpy(&a, row + j, sizeof a);
      memcpy(&b, row + j + 8, sizeof b);
      acc0 += __builtin_convertvector(a, v8) * *(const v8 *)(q + j);
      acc1 += __builtin_convertvector(b, v8) * *(const v8 *)(q + j + 8);
    }
    double s = 0;
    for (int t = 0; t < 8; t++) s += (double)acc0[t] + (double)acc1[t];
    for (; j < dims; j++) {
      _Float16 h;
      memcpy(&h, row + j, sizeof h);
      s += (double)(float)h * q[j];
    }
    out[i] = s;
  }
}
#else
/* A compiler without _Float16: the half floats widened in software (same sums, slower). */
static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, bits;
  if (exp == 0) {
    if (mant == 0) bits = sign;
    else {
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) { mant <<= 1; exp--; }
      bits = sign | (exp << 23) | ((mant & 0x3ff) << 13);
    }
  } else if (exp == 31) bits = sign | 0x7f800000 | (mant << 13);
  else bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static void dot_rows_half(const uint16_t *matrix, int dims, const int *slots, int count, const float *q, double *out) {
  for (int i = 0; i < count; i++) {
    const uint16_t *row = matrix + (size_t)slots[i] * dims;
    double s = 0;
    for (int j = 0; j < dims; j++) s += (double)half_to_float(row[j]) * q[j];
    out[i] = s;
  }
}
#endif

static int int32s(napi_env env, napi_value v, int **data, size_t *length) {
  void *raw = NULL;
  const int ok = typed_array(env, v, napi_int32_array, &raw, length);
  *data = (int *)raw;
  return ok;
}

/* dotRows(matrix, dims, slots, count, query, out) */
static napi_value dotRows(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  float *matrix, *q;
  double *out;
  int *slots;
  size_t lm, ls, lq, lo;
  int dims, count;
  napi_typedarray_type outType;
  void *outRaw;
  if (argc < 6 || !floats(env, argv[0], &matrix, &lm) || !integer(env, argv[1], &dims) || !int32s(env, argv[2], &slots, &ls) ||
      !integer(env, argv[3], &count) || !floats(env, argv[4], &q, &lq) ||
      napi_get_typedarray_info(env, argv[5], &outType, &lo, &outRaw, NULL, NULL) != napi_ok || outType != napi_float64_array || dims == 0) {
    napi_throw_type_error(env, NULL, "dotRows(matrix, dims, slots, count, query, out): bad arguments");
    return NULL;
  }
  if (ls < (size_t)count || lq < (size_t)dims || lo < (size_t)count) {
    napi_throw_range_error(env, NULL, "dotRows: an array is shorter than its dimensions");
    return NULL;
  }
  out = (double *)outRaw;
  const size_t rows = lm / (size_t)dims;
  for (int i = 0; i < count; i++)
    if (slots[i] < 0 || (size_t)slots[i] >= rows) {
      napi_throw_range_error(env, NULL, "dotRows: a slot is outside the matrix");
      return NULL;
    }
  dot_rows(matrix, dims, slots, count, q, out);
  return NULL;
}

/* dotRowsHalf(matrix: Uint16Array of binary16 bits, dims, slots, count, query, out) */
static napi_value dotRowsHalf(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  float *q;
  double *out;
  int *slots;
  size_t lm, ls, lq, lo;
  int dims, count;
  napi_typedarray_type matrixType, outType;
  void *matrixRaw, *outRaw;
  if (argc < 6 || napi_get_typedarray_info(env, argv[0], &matrixType, &lm, &matrixRaw, NULL, NULL) != napi_ok || matrixType != napi_uint16_array ||
      !integer(env, argv[1], &dims) || !int32s(env, argv[2], &slots, &ls) || !integer(env, argv[3], &count) || !floats(env, argv[4], &q, &lq) ||
      napi_get_typedarray_info(env, argv[5], &outType, &lo, &outRaw, NULL, NULL) != napi_ok || outType != napi_float64_array || dims <= 0 || count < 0) {
    napi_throw_type_error(env, NULL, "dotRowsHalf(matrix, dims, slots, count, query, out): bad arguments");
    return NULL;
  }
  if (ls < (size_t)count || lq < (size_t)dims || lo < (size_t)count) {
    napi_throw_range_error(env, NULL, "dotRowsHalf: an array is shorter than its dimensions");
    return NULL;
  }
  out = (double *)outRaw;
  const size_t rows = lm / (size_t)dims;
  for (int i = 0; i < count; i++)
    if (slots[i] < 0 || (size_t)slots[i] >= rows) {
      napi_throw_range_error(env, NULL, "dotRowsHalf: a slot is outside the matrix");
      return NULL;
    }
  dot_rows_half((const uint16_t *)matrixRaw, dims, slots, count, q, out);
  return NULL;
}

/*
 * Sign sketches of the rows (issue 41): bit j of a row's sketch (byte j / 8, bit j % 8) is set when its component j is
 * above zero. The Hamming distance between two sketches estimates the angle between the vectors, so a scan of a
 * filter's rows reads 64 bytes a row at 512 dimensions instead of 1 KB and re-scores only the nearest from the rows.
 */
static void sign_bits_half(const uint16_t *matrix, int dims, size_t from, size_t count, uint8_t *out) {
  const size_t bytes = ((size_t)dims + 7) / 8;
  for (size_t r = from; r < from + count; r++) {
    const uint16_t *row = matrix + r * (size_t)dims;
    uint8_t *o = out + r * bytes;
    memset(o, 0, bytes);
    for (int j = 0; j < dims; j++)
      if (!(row[j] & 0x8000) && (row[j] & 0x7fff)) o[j >> 3] |= (uint8_t)(1u << (j & 7));
  }
}

static int uint8s(napi_env env, napi_value v, uint8_t **data, size_t *length) {
  void *raw = NULL;
  const int ok = typed_array(env, v, napi_uint8_array, &raw, length);
  *data = (uint8_t *)raw;
  return ok;
}

/* signBitsHalf(matrix: Uint16Array of binary16 bits, dims, from, count, out: Uint8Array): the sketches of rows from..from+count-1 */
static napi_value signBitsHalf(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_typedarray_type matrixType;
  void *matrixRaw;
  uint8_t *out;
  size_t lm, lo;
  int dims, from, count;
  if (argc < 5 || napi_get_typedarray_info(env, argv[0], &matrixType, &lm, &matrixRaw, NULL, NULL) != napi_ok || matrixType != napi_uint16_array ||
      !integer(env, argv[1], &dims) || !integer(env, argv[2], &from) || !integer(env, argv[3], &count) || !uint8s(env, argv[4], &out, &lo) ||
      dims <= 0 || from < 0 || count < 0) {
    napi_throw_type_error(env, NULL, "signBitsHalf(matrix, dims, from, count, out): bad arguments");
    return NULL;
  }
  const size_t end = (size_t)from + (size_t)count;
  if (end * (size_t)dims > lm || end * (((size_t)dims + 7) / 8) > lo) {
    napi_throw_range_error(env, NULL, "signBitsHalf: an array is shorter than its rows");
    return NULL;
  }
  sign_bits_half((const uint16_t *)matrixRaw, dims, (size_t)from, (size_t)count, out);
  return NULL;
}

static int hamming(const uint8_t *a, const uint8_t *b, size_t bytes) {
  int d = 0;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    d += __builtin_popcountll(x ^ y);
  }
  for (; i < bytes; i++) d += __builtin_popcount((unsigned)(a[i] ^ b[i]));
  return d;
}

/*
 * nearestBySigns(signs, bytes, slots, count, query, keep, out): writes to out the `keep` slots of slots[0..count) whose
 * sketches are nearest the query's (ties at the cut in the order given) and returns how many it wrote. Two passes:
 * the distances and their histogram, then the slots under the cut.
 */
static napi_value nearestBySigns(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *signs, *q;
  int *slots, *out;
  size_t ls, lsl, lq, lo;
  int bytes, count, keep;
  if (argc < 7 || !uint8s(env, argv[0], &signs, &ls) || !integer(env, argv[1], &bytes) || !int32s(env, argv[2], &slots, &lsl) ||
      !integer(env, argv[3], &count) || !uint8s(env, argv[4], &q, &lq) || !integer(env, argv[5], &keep) || !int32s(env, argv[6], &out, &lo) ||
      bytes <= 0 || bytes > 4096 || count < 0 || keep < 0) {
    napi_throw_type_error(env, NULL, "nearestBySigns(signs, bytes, slots, count, query, keep, out): bad arguments");
    return NULL;
  }
  if (keep > count) keep = count;
  if (lsl < (size_t)count || lq < (size_t)bytes || lo < (size_t)keep) {
    napi_throw_range_error(env, NULL, "nearestBySigns: an array is shorter than its count");
    return NULL;
  }
  const size_t rows = ls / (size_t)bytes;
  for (int i = 0; i < count; i++)
    if (slots[i] < 0 || (size_t)slots[i] >= rows) {
      napi_throw_range_error(env, NULL, "nearestBySigns: a slot is outside the sketches");
      return NULL;
    }
  napi_value result;
  if (keep == 0 || count == 0) {
    napi_create_int32(env, 0, &result);
    return result;
  }
  uint16_t *dist = malloc((size_t)count * sizeof *dist);
  const int most = bytes * 8;
  int *histogram = calloc((size_t)most + 1, sizeof *histogram);
  if (!dist || !histogram) {
    free(dist);
    free(histogram);
    napi_throw_error(env, NULL, "nearestBySigns: out of memory");
    return NULL;
  }
  for (int i = 0; i < count; i++) {
    /* The sketches of a filter's rows lie far apart: ask for the row sixteen ahead while this one is read. */
    if (i + 16 < count) __builtin_prefetch(signs + (size_t)slots[i + 16] * bytes, 0, 0);
    const int d = hamming(signs + (size_t)slots[i] * bytes, q, (size_t)bytes);
    dist[i] = (uint16_t)d;
    histogram[d]++;
  }
  /* The cut: every distance below it is kept, and those at it until `keep` are. */
  int cut = 0, below = 0;
  while (below + histogram[cut] < keep) below += histogram[cut++];
  int written = 0, atCut = keep - below;
  for (int i = 0; i < count; i++) {
    if (dist[i] < cut) out[written++] = slots[i];
    else if (dist[i] == cut && atCut > 0) {
      out[written++] = slots[i];
      atCut--;
    }
  }
  free(dist);
  free(histogram);
  napi_create_int32(env, written, &result);
  return result;
}

/* The mapping's length, handed to the finalizer (munmap needs it). */
static void unmap_buffer(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

/*
 * mapFile(path, offset, length, capacity): an ArrayBuffer of `capacity` bytes whose first `length` bytes are the
 * file's from `offset` (a multiple of the page size), mapped MAP_PRIVATE: reads come from the page cache (shared with
 * every process mapping the file, given back under memory pressure); a write copies only its own page, and the file
 * never changes. The bytes after `length` are zero: anonymous pages, taken only when written. The file must not be
 * truncated while mapped (snapshot files are written once and only ever unlinked).
 */
static napi_value mapFile(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char path[4096];
  size_t pathLength;
  double offsetValue, lengthValue, capacityValue;
  if (argc < 4 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &pathLength) != napi_ok || pathLength >= sizeof path - 1 ||
      napi_get_value_double(env, argv[1], &offsetValue) != napi_ok || napi_get_value_double(env, argv[2], &lengthValue) != napi_ok ||
      napi_get_value_double(env, argv[3], &capacityValue) != napi_ok || offsetValue < 0 || lengthValue < 0 || capacityValue < lengthValue) {
    napi_throw_type_error(env, NULL, "mapFile(path, offset, length, capacity): bad arguments");
    return NULL;
  }
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t offset = (size_t)offsetValue, length = (size_t)lengthValue;
  const size_t capacity = ((size_t)capacityValue + page - 1) / page * page;
  if (offset % page != 0 || capacity == 0) {
    napi_throw_range_error(env, NULL, "mapFile: the offset is not a multiple of the page size");
    return NULL;
  }
  /* The whole room first (anonymous, reserved lazily), then the file over its start. */
  void *room = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (room == MAP_FAILED) {
    napi_throw_error(env, NULL, strerror(errno));
    return NULL;
  }
  if (length > 0) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    void *mapped = fd < 0 ? MAP_FAILED : mmap(room, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, (off_t)offset);
    const int error = errno;
    if (fd >= 0) close(fd);
    if (mapped == MAP_FAILED) {
      munmap(room, capacity);
      napi_throw_error(env, NULL, strerror(error));
      return NULL;
    }
    /* The rest of the file's last page holds the file's next bytes: zeroed, as the room after it is. */
    const size_t tail = (length + page - 1) / page * page;
    if (tail > length) memset((char *)room + length, 0, tail - length);
  }
  napi_value buffer;
  if (napi_create_external_arraybuffer(env, room, capacity, unmap_buffer, (void *)(uintptr_t)capacity, &buffer) != napi_ok) {
    munmap(room, capacity);
    napi_throw_error(env, NULL, "mapFile: external buffers are not allowed here");
    return NULL;
  }
  return buffer;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "sgemm", NAPI_AUTO_LENGTH, sgemm, NULL, &fn);
  napi_set_named_property(env, exports, "sgemm", fn);
  napi_create_function(env, "dotRows", NAPI_AUTO_LENGTH, dotRows, NULL, &fn);
  napi_set_named_property(env, exports, "dotRows", fn);
  napi_create_function(env, "dotRowsHalf", NAPI_AUTO_LENGTH, dotRowsHalf, NULL, &fn);
  napi_set_named_property(env, exports, "dotRowsHalf", fn);
  napi_create_function(env, "signBitsHalf", NAPI_AUTO_LENGTH, signBitsHalf, NULL, &fn);
  napi_set_named_property(env, exports, "signBitsHalf", fn);
  napi_create_function(env, "nearestBySigns", NAPI_AUTO_LENGTH, nearestBySigns, NULL, &fn);
  napi_set_named_property(env, exports, "nearestBySigns", fn);
  napi_create_function(env, "mapFile", NAPI_AUTO_LENGTH, mapFile, NULL, &fn);
  napi_set_named_property(env, exports, "mapFile", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
