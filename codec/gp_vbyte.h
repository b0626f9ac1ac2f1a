/* GPUPOST_VBYTE: variable-byte codes in a gpupost container (FORMATS.md 5). After a 12-byte
 * header (GPVB, n, the delta rule) each stored value takes 1 to 5 bytes of 7 data bits, least
 * significant group first, the high bit set on every byte but the value's last. The decoded list
 * is 32-bit: every value and every stored value is at most 2^32-1. */
#ifndef GP_VBYTE_H
#define GP_VBYTE_H

#include "gp_common.h"

#define GP_VBYTE_NAME "VBYTE"
#define GP_VBYTE_HEADER 12
#define GP_VBYTE_MAX_BYTES 5

/* Header checks only (magic, delta rule, n at most one value a byte): O(1), what the host checks
 * before it sizes a result or launches a kernel. */
int gp_vbyte_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err);
/* Validates and decodes a blob whose header passed: its n values after the delta rule into out,
 * in one pass. GP_EFORMAT with the offset and the rule of the first byte that breaks the format
 * (out then means nothing). */
int gp_vbyte_decode(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err);
/* The same by the portable decoder alone, wherever the CPU has a faster one (the fuzz target
 * and the benchmarks compare the two). */
int gp_vbyte_decode_portable(const uint8_t *blob, size_t len, uint32_t *out, gp_error *err);

/* Encodes x[0..n) under `delta` (0, 1, 2); at most gp_vbyte_encode_bound(n) bytes. Returns the
 * length, or 0 with *at the first position whose value or stored value is outside 0..2^32-1
 * (or breaks the rule's order). */
#define gp_vbyte_encode_bound(n) (GP_VBYTE_HEADER + GP_VBYTE_MAX_BYTES * (size_t)(n))
size_t gp_vbyte_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, size_t *at);

#endif
