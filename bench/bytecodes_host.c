/* Benchmark (not a test) of the byte-aligned codes on the host, one core: VBYTE and GROUP_VARINT
 * decoded by gpupost's SIMD decoders and its portable ones, beside Lemire's Stream VByte (Debian's
 * libstreamvbyte-dev, its delta decoder: the anchor) on the same values, into C arrays. The
 * delta rule is fused into every decode. Best of REPS, M values/s, and bits a value.
 *   bash bench/bytecodes.sh [VALUES (default 1M)] [REPS (default 50)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <streamvbyte.h>
#include <streamvbytedelta.h>

#include "../codec/gp_gvarint.h"
#include "../codec/gp_vbyte.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

typedef int (*decode_fn)(const uint8_t *, size_t, uint32_t *, gp_error *);

static double best_of(int reps, decode_fn f, const uint8_t *blob, size_t len, uint32_t *out, const uint32_t *want,
                      size_t n)
{
	double best = 1e30;
	gp_error err;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		if (f(blob, len, out, &err) != GP_OK) {
			fprintf(stderr, "decode failed: %s\n", err.rule);
			exit(1);
		}
		double t = now() - t0;
		if (t < best) best = t;
	}
	if (memcmp(out, want, n * 4) != 0) {
		fprintf(stderr, "decoded values differ\n");
		exit(1);
	}
	return n / best / 1e6;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 50;
	int64_t *x = malloc(n * sizeof(int64_t));
	uint32_t *x32 = malloc(n * 4), *out = malloc(n * 4 + 64);
	uint8_t *vb = malloc(gp_vbyte_encode_bound(n)), *gv = malloc(gp_gvarint_encode_bound(n));
	uint8_t *sv = malloc(streamvbyte_max_compressedbytes((uint32_t)n));
	if (!x || !x32 || !out || !vb || !gv || !sv) return 1;
	printf("# bytecodes_host: %zu docIDs a list (delta rule 1: gaps stored), best of %d, one core; M values/s\n", n, reps);
	printf("%-14s %9s %9s %9s %9s %9s %9s %11s\n", "gaps", "VB bits", "VB simd", "VB plain", "GV bits", "GV simd",
	       "GV plain", "svb-delta");
	const uint32_t maxgaps[] = {64, 127, 255, 1000, 16383, 1u << 20};
	for (size_t m = 0; m < sizeof(maxgaps) / sizeof(maxgaps[0]); m++) {
		int64_t v = 0;
		size_t k = 0;
		for (; k < n; k++) {
			v += 1 + next_rand() % maxgaps[m];
			if (v > (int64_t)UINT32_MAX) break;   /* the lists are 32-bit */
			x[k] = v;
			x32[k] = (uint32_t)v;
		}
		size_t at, lv = gp_vbyte_encode(x, k, 1, vb, &at), lg = gp_gvarint_encode(x, k, 1, gv, &at);
		size_t ls = streamvbyte_delta_encode(x32, (uint32_t)k, sv, 0);
		double sbest = 1e30;
		for (int r = 0; r < reps; r++) {
			double t0 = now();
			streamvbyte_delta_decode(sv, out, (uint32_t)k, 0);
			if (now() - t0 < sbest) sbest = now() - t0;
		}
		if (memcmp(out, x32, k * 4) != 0) return 1;
		printf("1..%-11u %9.2f %9.0f %9.0f %9.2f %9.0f %9.0f %11.0f\n", maxgaps[m], 8.0 * lv / k,
		       best_of(reps, gp_vbyte_decode, vb, lv, out, x32, k), best_of(reps, gp_vbyte_decode_portable, vb, lv, out, x32, k),
		       8.0 * lg / k, best_of(reps, gp_gvarint_decode, gv, lg, out, x32, k),
		       best_of(reps, gp_gvarint_decode_portable, gv, lg, out, x32, k), k / sbest / 1e6);
		(void)ls;
	}
	return 0;
}
