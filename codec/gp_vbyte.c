#include "gp_vbyte.h"
#include "gp_delta.h"
#include "gp_simd.h"

int gp_vbyte_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err)
{
	if (len < GP_VBYTE_HEADER || blob[0] != 'G' || blob[1] != 'P' || blob[2] != 'V' || blob[3] != 'B') {
		return gp_fail(err, GP_VBYTE_NAME, 0, "magic is not GPVB (or the blob is shorter than its 12-byte header)");
	}
	*n = gp_load_le32(blob + 4);
	*delta = gp_load_le32(blob + 8);
	if (*delta > 2) {
		return gp_fail(err, GP_VBYTE_NAME, 8, "delta rule %u is not 0, 1 or 2", (unsigned)*delta);
	}
	if (*n > len - GP_VBYTE_HEADER) {
		return gp_fail(err, GP_VBYTE_NAME, 4, "value count %zu does not fit %zu bytes (a value takes one at least)",
		               *n, len - GP_VBYTE_HEADER);
	}
	return GP_OK;
}

/* Where a decode stopped: the rule broken at byte `at` of the blob. */
typedef struct vbyte_stop {
	const char *why;
	size_t at;
} vbyte_stop;

/* The stored value whose first byte is p (the payload ends at end): the byte after it, or NULL
 * with the rule broken. */
GP_ALWAYS_INLINE const uint8_t *vbyte_value(const uint8_t *p, const uint8_t *end, uint64_t *v, const char **why)
{
	uint64_t x = 0;
	for (unsigned i = 0; i < GP_VBYTE_MAX_BYTES; i++) {
		if (p + i == end) {
			*why = "the last value runs past the end of the blob (its last byte has the high bit set)";
			return NULL;
		}
		x |= (uint64_t)(p[i] & 0x7Fu) << (7 * i);
		if (!(p[i] & 0x80u)) {
			if (x > UINT32_MAX) {
				*why = "a value above 2^32-1 (its fifth byte is above 0x0f)";
				return NULL;
			}
			*v = x;
			return p + i + 1;
		}
	}
	*why = "a value longer than 5 bytes";
	return NULL;
}

/* Values k.. one at a time until `until` of them are out (or the bytes end): the byte after the
 * last, or NULL with *stop set. */
GP_ALWAYS_INLINE const uint8_t *vbyte_values(const uint8_t *blob, const uint8_t *p, const uint8_t *end, size_t *k,
                                             size_t until, uint32_t delta, int64_t *run, uint32_t *out,
                                             vbyte_stop *stop)
{
	while (*k < until && p < end) {
		uint64_t v;
		const uint8_t *next = vbyte_value(p, end, &v, &stop->why);
		if (!next) {
			stop->at = (size_t)(p - blob);
			return NULL;
		}
		if (!gp_delta_next(delta, run, v, out + *k)) {
			stop->why = "the running sum passes 2^32-1";
			stop->at = (size_t)(p - blob);
			return NULL;
		}
		p = next;
		++*k;
	}
	return p;
}

/* The portable decoder: value after value. Returns the values decoded (n unless *stop is set or
 * the bytes ran out) and *end_at the byte after the last. */
static size_t vbyte_decode_plain(const uint8_t *blob, size_t len, size_t n, uint32_t delta, uint32_t *out,
                                 size_t *end_at, vbyte_stop *stop)
{
	const uint8_t *end = blob + len, *p = blob + GP_VBYTE_HEADER;
	int64_t run = gp_delta_start(delta);
	size_t k = 0;
	p = vbyte_values(blob, p, end, &k, n, delta, &run, out, stop);
	*end_at = p ? (size_t)(p - blob) : 0;
	return k;
}

#if GP_HAVE_AVX2_BUILD
/* Values of one or two bytes, up to eight of them in the first twelve bytes of a read, by the
 * continuation bits of those twelve bytes (MaskedVByte's idea): how many values end there
 * before a longer one, the bytes they take, and which shuffle puts each in a 16-bit lane. */
typedef struct vbyte_pairs {
	uint8_t values, bytes, shuffle;
} vbyte_pairs;
static vbyte_pairs vbyte_pairs_of[1 << 12];
static uint8_t vbyte_pair_shuffles[256][16];   /* by which of eight values take two bytes */
static int vbyte_tables_built;

static void vbyte_tables_build(void)
{
	for (unsigned twos = 0; twos < 256; twos++) {
		unsigned at = 0;
		for (unsigned j = 0; j < 8; j++) {
			int two = (twos >> j) & 1u;
			vbyte_pair_shuffles[twos][2 * j] = (uint8_t)(at < 16 ? at : 0x80u);
			vbyte_pair_shuffles[twos][2 * j + 1] = two && at + 1 < 16 ? (uint8_t)(at + 1) : 0x80u;
			at += two ? 2u : 1u;
		}
	}
	for (unsigned m = 0; m < (1u << 12); m++) {
		unsigned at = 0, values = 0, twos = 0;
		while (values < 8 && at < 12) {
			if (!((m >> at) & 1u)) {
				at += 1;
			} else if (at + 1 < 12 && !((m >> (at + 1)) & 1u)) {
				twos |= 1u << values;
				at += 2;
			} else {
				break;
			}
			values++;
		}
		vbyte_pairs_of[m] = (vbyte_pairs){(uint8_t)values, (uint8_t)at, (uint8_t)twos};
	}
	vbyte_tables_built = 1;
}

/* With AVX2, from sixteen bytes: all high bits clear, sixteen one-byte values widened and summed
 * under the rule in two sets of eight lanes; else the values of one or two bytes in the first
 * twelve (vbyte_pairs_of); else one value at a time up to the end of a longer one. */
GP_TARGET_AVX2 static size_t vbyte_decode_avx2(const uint8_t *blob, size_t len, size_t n, uint32_t delta,
                                              uint32_t *out, size_t *end_at, vbyte_stop *stop)
{
	const uint8_t *end = blob + len, *p = blob + GP_VBYTE_HEADER;
	int64_t run = gp_delta_start(delta);
	size_t k = 0;
	if (!vbyte_tables_built) vbyte_tables_build();
	while (p && k < n && p < end) {
		if (n - k >= 16 && end - p >= 16) {
			__m128i b = _mm_loadu_si128((const __m128i *)p);
			unsigned m = (unsigned)_mm_movemask_epi8(b);
			int64_t keep = run;
			if (m == 0) {
				if (gp_delta_lanes_avx2(_mm256_cvtepu8_epi32(b), 8, delta, &run, out + k) &&
				    gp_delta_lanes_avx2(_mm256_cvtepu8_epi32(_mm_srli_si128(b, 8)), 8, delta, &run, out + k + 8)) {
					p += 16;
					k += 16;
					continue;
				}
			} else {
				const vbyte_pairs e = vbyte_pairs_of[m & 0xFFFu];
				if (e.values > 0) {
					__m128i x = _mm_shuffle_epi8(b, _mm_loadu_si128((const __m128i *)vbyte_pair_shuffles[e.shuffle]));
					/* a lane holds lo | hi << 8, lo's high bit set where hi follows */
					x = _mm_or_si128(_mm_and_si128(x, _mm_set1_epi16(0x7F)),
					                 _mm_srli_epi16(_mm_and_si128(x, _mm_set1_epi16(0x7F00)), 1));
					if (gp_delta_lanes_avx2(_mm256_cvtepu16_epi32(x), e.values, delta, &run, out + k)) {
						p += e.bytes;
						k += e.values;
						continue;
					}
				}
			}
			/* a longer value, or past 2^32-1: one value at a time, to the end of the first longer
			 * one, and a few more where they are long (three bytes or more: no table of pairs
			 * takes them) */
			run = keep;
			size_t ones = (size_t)__builtin_ctz(m | 0x10000u);
			p = vbyte_values(blob, p, end, &k, k + (ones < 15 ? ones : 15) + (ones ? 1 : 4), delta, &run, out, stop);
			continue;
		}
		p = vbyte_values(blob, p, end, &k, n, delta, &run, out, stop);
	}
	*end_at = p ? (size_t)(p - blob) : 0;
	return k;
}
#endif

static int vbyte_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err, int simd)
{
	size_t n, end_at = 0, k;
	uint32_t delta;
	vbyte_stop stop = {NULL, 0};
	if (gp_vbyte_check_header(blob, len, &n, &delta, err) != GP_OK) return GP_EFORMAT;
#if GP_HAVE_AVX2_BUILD
	if (simd && gp_cpu_has_avx2()) k = vbyte_decode_avx2(blob, len, n, delta, out, &end_at, &stop);
	else
#endif
		k = vbyte_decode_plain(blob, len, n, delta, out, &end_at, &stop);
	(void)simd;
	if (stop.why) return gp_fail(err, GP_VBYTE_NAME, stop.at, "%s", stop.why);
	if (k < n) return gp_fail(err, GP_VBYTE_NAME, 4, "the bytes hold %zu values, n says %zu", k, n);
	if (end_at != len) {
		return gp_fail(err, GP_VBYTE_NAME, end_at, "bytes after the last of n = %zu values", n);
	}
	return GP_OK;
}

int gp_vbyte_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err)
{
	return vbyte_decode(blob, len, out, err, 1);
}

int gp_vbyte_decode_portable(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err)
{
	return vbyte_decode(blob, len, out, err, 0);
}

size_t gp_vbyte_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at)
{
	size_t pos = gp_delta_header(x, n, delta, UINT32_MAX, UINT32_MAX, "GPVB", out, at);
	if (pos == 0) return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = (uint64_t)gp_delta_stored(x, i, delta);
		for (; v >= 0x80u; v >>= 7) out[pos++] = (uint8_t)(v | 0x80u);
		out[pos++] = (uint8_t)v;
	}
	return pos;
}
