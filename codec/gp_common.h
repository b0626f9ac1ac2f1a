/* gpupost codecs: shared types. No PHP and no OpenCL anywhere under codec/, so that every
 * decoder can be fuzzed and tested on its own. */
#ifndef GP_COMMON_H
#define GP_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Status codes returned by codec and dispatch functions. */
enum {
	GP_OK = 0,
	GP_EFORMAT = -1,  /* the blob breaks its format: gp_error says where and how */
	GP_ENOMEM = -2,   /* an allocation failed or the result would be too large */
	GP_EDEVICE = -3,  /* the OpenCL device failed (the caller falls back to the host) */
	GP_EVALUE = -4    /* a value handed to an encoder is out of its range */
};

/* What went wrong: the status code (GP_EFORMAT: where a blob broke its format, with the format's
 * name, the byte offset and the rule; GP_ENOMEM: what would not fit; GP_EDEVICE: the OpenCL
 * failure). */
typedef struct gp_error {
	int code;          /* the GP_E* status this error goes with */
	const char *format;
	size_t offset;
	char rule[200];
	int cl_status; /* OpenCL error code for GP_EDEVICE, else 0 */
	size_t blob;   /* which blob of a batch (0 for a single blob) */
} gp_error;

/* Bytes as a message shows them (a term may be any bytes: Yioop's word ids hold zeros): printable
 * ASCII as it is, anything else as \xHH, at most `most` bytes of the input then "..."; into out
 * (cap bytes, NUL-terminated). Returns out. */
char *gp_printable(const char *bytes, size_t len, size_t most, char *out, size_t cap);

int gp_fail(gp_error *err, const char *format, size_t offset, const char *rule, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static inline uint32_t gp_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline uint32_t gp_load_le32(const uint8_t *p)
{
	return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | p[0];
}

static inline uint64_t gp_load_le64(const uint8_t *p)
{
	return ((uint64_t)gp_load_le32(p + 4) << 32) | gp_load_le32(p);
}

static inline void gp_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static inline void gp_store_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static inline void gp_store_le64(uint8_t *p, uint64_t v)
{
	gp_store_le32(p, (uint32_t)v);
	gp_store_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
