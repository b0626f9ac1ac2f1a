/* GPUPOST_GROUP_VARINT: Group VarInt in a gpupost container (FORMATS.md 6). After a 12-byte
 * header (GPGV, n, the delta rule) the stored values go four to a group: a selector byte of four
 * 2-bit lengths less one (the first value's in bits 1-0), then the four values little-endian in
 * 1 to 4 bytes each. The last group's unused slots say length 1 and hold 0. The decoded list is
 * 32-bit, as VBYTE's. */
#ifndef GP_GVARINT_H
#define GP_GVARINT_H

#include "gp_common.h"

#define GP_GVARINT_NAME "GROUP_VARINT"
#define GP_GVARINT_HEADER 12
#define GP_GVARINT_MAX_GROUP 17   /* a selector and four 4-byte values */

/* The bytes of a group after its selector s. */
static inline unsigned gp_gvarint_data_bytes(unsigned s)
{
	return 4u + (s & 3u) + ((s >> 2) & 3u) + ((s >> 4) & 3u) + (s >> 6);
}

/* Header checks only (magic, delta rule, n at most four values in every five bytes): O(1). */
int gp_gvarint_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err);
/* Validates and decodes a blob whose header passed: its n values after the delta rule into out,
 * in one pass. GP_EFORMAT with the offset and the rule of the first byte that breaks the format. */
int gp_gvarint_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err);
/* The same by the portable decoder alone (as gp_vbyte_decode_portable). */
int gp_gvarint_decode_portable(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err);

/* Encodes x[0..n) under `delta` (0, 1, 2); at most gp_gvarint_encode_bound(n) bytes. Returns the
 * length, or 0 with *at the first position that cannot be stored (as gp_vbyte_encode). */
#define gp_gvarint_encode_bound(n) (GP_GVARINT_HEADER + GP_GVARINT_MAX_GROUP * (((size_t)(n) + 3) / 4))
size_t gp_gvarint_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at);

#endif
