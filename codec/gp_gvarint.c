#include "gp_gvarint.h"
#include "gp_delta.h"
#include "gp_simd.h"

int gp_gvarint_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err)
{
	if (len < GP_GVARINT_HEADER || blob[0] != 'G' || blob[1] != 'P' || blob[2] != 'G' || blob[3] != 'V') {
		return gp_fail(err, GP_GVARINT_NAME, 0, "magic is not GPGV (or the blob is shorter than its 12-byte header)");
	}
	*n = gp_load_le32(blob + 4);
	*delta = gp_load_le32(blob + 8);
	if (*delta > 2) {
		return gp_fail(err, GP_GVARINT_NAME, 8, "delta rule %u is not 0, 1 or 2", (unsigned)*delta);
	}
	if ((*n + 3) / 4 > (len - GP_GVARINT_HEADER) / 5) {
		return gp_fail(err, GP_GVARINT_NAME, 4, "value count %zu does not fit %zu bytes (a group of four takes five at least)",
		               *n, len - GP_GVARINT_HEADER);
	}
	return GP_OK;
}

/* Where a decode stopped: the rule broken at byte `at` of the blob. */
typedef struct gvarint_stop {
	const char *why;
	size_t at;
} gvarint_stop;

/* A decode's state: the next group at p, k values out, the running value. */
typedef struct gvarint_state {
	const uint8_t *blob, *p, *end;
	size_t n, k;
	uint32_t delta;
	int64_t run;
	uint32_t *out;
	gvarint_stop stop;
} gvarint_state;

/* Groups one at a time until `until` values are out: 0 with s->stop set when a group breaks the
 * format (the last group's unused slots are checked here: only this path takes it). */
GP_ALWAYS_INLINE int gvarint_groups(gvarint_state *s, size_t until)
{
	while (s->k < until) {
		const uint8_t *p = s->p;
		s->stop.at = (size_t)(p - s->blob);
		if (p == s->end) {
			s->stop.why = "the groups end before n values";
			return 0;
		}
		unsigned sel = *p, need = gp_gvarint_data_bytes(sel);
		if ((size_t)(s->end - p) - 1 < need) {
			s->stop.why = "a group runs past the end of the blob";
			return 0;
		}
		const uint8_t *d = p + 1;
		size_t used = s->n - s->k < 4 ? s->n - s->k : 4;
		for (unsigned j = 0; j < 4; j++) {
			unsigned bytes = ((sel >> (2 * j)) & 3u) + 1;
			uint32_t v = 0;
			for (unsigned b = 0; b < bytes; b++) v |= (uint32_t)d[b] << (8 * b);
			d += bytes;
			if (j >= used) {
				if (bytes != 1 || v != 0) {
					s->stop.why = "an unused slot of the last group is not one byte holding 0";
					return 0;
				}
			} else if (!gp_delta_next(s->delta, &s->run, v, s->out + s->k + j)) {
				s->stop.why = "the running sum passes 2^32-1";
				return 0;
			}
		}
		s->k += used;
		s->p = d;
	}
	return 1;
}

#if GP_HAVE_AVX2_BUILD
/* Per selector, the shuffle that spreads a group's data bytes (read from the byte after its
 * selector) into four 32-bit lanes, zero above each value's bytes. */
static uint8_t gvarint_shuffles[256][16];
static int gvarint_shuffles_built;

static void gvarint_shuffles_build(void)
{
	for (unsigned sel = 0; sel < 256; sel++) {
		unsigned at = 0;
		for (unsigned j = 0; j < 4; j++) {
			unsigned bytes = ((sel >> (2 * j)) & 3u) + 1;
			for (unsigned b = 0; b < 4; b++) gvarint_shuffles[sel][4 * j + b] = b < bytes ? (uint8_t)(at + b) : 0x80u;
			at += bytes;
		}
	}
	gvarint_shuffles_built = 1;
}

/* Six groups of one-byte values (selectors 0) from thirty bytes, as 24 lanes: the data bytes of
 * three groups from each sixteen-byte read squeezed together, then widened. */
GP_TARGET_AVX2 static inline void gvarint_ones24(const uint8_t *p, __m256i v[3])
{
	const __m128i squeeze = _mm_setr_epi8(1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, -1, -1, -1, -1);
	__m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), squeeze);
	__m128i b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 15)), squeeze);
	v[0] = _mm256_cvtepu8_epi32(a);
	v[1] = _mm256_cvtepu8_epi32(_mm_or_si128(_mm_srli_si128(a, 8), _mm_slli_si128(b, 4)));
	v[2] = _mm256_cvtepu8_epi32(_mm_srli_si128(b, 4));
}

/* With AVX2: runs of groups whose selectors are all 0 (values below 256, the usual d-gaps) six
 * groups at a time; other groups through their selector's shuffle; the last group (its unused
 * slots) and the last bytes of the blob one group at a time. */
GP_TARGET_AVX2 static void gvarint_decode_avx2(gvarint_state *s)
{
	/* the values of the groups before the last */
	const size_t full = s->n == 0 ? 0 : (s->n - 1) / 4 * 4;
	if (!gvarint_shuffles_built) gvarint_shuffles_build();
	while (s->k < full) {
		const uint8_t *p = s->p;
		if (full - s->k >= 24 && s->end - p >= 31 && (p[0] | p[5] | p[10] | p[15] | p[20] | p[25]) == 0) {
			__m256i v[3];
			int64_t keep = s->run;
			gvarint_ones24(p, v);
			if (gp_delta_lanes_avx2(v[0], 8, s->delta, &s->run, s->out + s->k) &&
			    gp_delta_lanes_avx2(v[1], 8, s->delta, &s->run, s->out + s->k + 8) &&
			    gp_delta_lanes_avx2(v[2], 8, s->delta, &s->run, s->out + s->k + 16)) {
				s->p += 30;
				s->k += 24;
				continue;
			}
			s->run = keep;   /* past 2^32-1 in these: named group by group */
			if (!gvarint_groups(s, s->k + 24)) return;
			continue;
		}
		if (s->end - p < 17) break;   /* a sixteen-byte read would pass the end */
		unsigned sel = p[0];
		__m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 1)),
		                             _mm_loadu_si128((const __m128i *)gvarint_shuffles[sel]));
		uint32_t lanes[4];
		_mm_storeu_si128((__m128i *)lanes, x);
		for (unsigned j = 0; j < 4; j++) {
			if (!gp_delta_next(s->delta, &s->run, lanes[j], s->out + s->k + j)) {
				s->stop.at = (size_t)(p - s->blob);
				s->stop.why = "the running sum passes 2^32-1";
				return;
			}
		}
		s->k += 4;
		s->p = p + 1 + gp_gvarint_data_bytes(sel);
	}
	gvarint_groups(s, s->n);
}
#endif

static int gvarint_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err, int simd)
{
	gvarint_state s = {.blob = blob, .p = blob + GP_GVARINT_HEADER, .end = blob + len, .out = out};
	if (gp_gvarint_check_header(blob, len, &s.n, &s.delta, err) != GP_OK) return GP_EFORMAT;
	s.run = gp_delta_start(s.delta);
#if GP_HAVE_AVX2_BUILD
	if (simd && gp_cpu_has_avx2()) gvarint_decode_avx2(&s);
	else
#endif
		gvarint_groups(&s, s.n);
	(void)simd;
	if (s.stop.why) return gp_fail(err, GP_GVARINT_NAME, s.stop.at, "%s", s.stop.why);
	if (s.p != s.end) {
		return gp_fail(err, GP_GVARINT_NAME, (size_t)(s.p - blob), "bytes after the last group of n = %zu values", s.n);
	}
	return GP_OK;
}

int gp_gvarint_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err)
{
	return gvarint_decode(blob, len, out, err, 1);
}

int gp_gvarint_decode_portable(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err)
{
	return gvarint_decode(blob, len, out, err, 0);
}

size_t gp_gvarint_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at)
{
	size_t pos = gp_delta_header(x, n, delta, UINT32_MAX, UINT32_MAX, "GPGV", out, at);
	if (pos == 0) return 0;
	for (size_t i = 0; i < n; i += 4) {
		size_t sel_at = pos++;
		unsigned sel = 0;
		for (unsigned j = 0; j < 4; j++) {
			uint32_t v = i + j < n ? (uint32_t)gp_delta_stored(x, i + j, delta) : 0;
			unsigned bytes = v >> 24 ? 4 : v >> 16 ? 3 : v >> 8 ? 2 : 1;
			sel |= (bytes - 1) << (2 * j);
			for (unsigned b = 0; b < bytes; b++) out[pos++] = (uint8_t)(v >> (8 * b));
		}
		out[sel_at] = (uint8_t)sel;
	}
	return pos;
}
