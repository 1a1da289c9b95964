/*
 * One dense kernel for the embedding model's forward pass (src/platform/embeddings/use-lite.ts):
 * out[n×m] = a[n×k] · w[k×m] + bias[m], optionally clamped at zero. Row-major float32.
 * Built by scripts/build-native.mjs with -O3 -march=native so the compiler vectorises the inner
 * loop (AVX2/FMA here); without it the encoder falls back to the TensorFlow.js graph.
 */
#include <node_api.h>
#include <string.h>

#define ROWS 4
#define COLS 128

/*
 * Blocked: for each strip of COLS output columns, ROWS rows of a at a time accumulate in a small
 * buffer that stays in L1 while the strip of w (k×COLS) is read from L2, once per ROWS rows.
 */
static void kernel(const float *a, int n, int k, const float *w, int m, const float *bias, float *out, int relu) {
  float acc[ROWS][COLS];
  for (int j0 = 0; j0 < m; j0 += COLS) {
    const int cols = m - j0 < COLS ? m - j0 : COLS;
    for (int i0 = 0; i0 < n; i0 += ROWS) {
      const int rows = n - i0 < ROWS ? n - i0 : ROWS;
      for (int r = 0; r < rows; r++)
        for (int j = 0; j < cols; j++) acc[r][j] = bias ? bias[j0 + j] : 0.0f;
      for (int p = 0; p < k; p++) {
        const float *wr = w + (size_t)p * m + j0;
        for (int r = 0; r < rows; r++) {
          const float x = a[(size_t)(i0 + r) * k + p];
          if (x == 0.0f) continue;
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

static int floats(napi_env env, napi_value v, float **data, size_t *length) {
  napi_typedarray_type type;
  void *raw;
  if (napi_get_typedarray_info(env, v, &type, length, &raw, NULL, NULL) != napi_ok || type != napi_float32_array) return 0;
  *data = (float *)raw;
  return 1;
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

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "sgemm", NAPI_AUTO_LENGTH, sgemm, NULL, &fn);
  napi_set_named_property(env, exports, "sgemm", fn);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
