/* What the index file's two versions share (gp_index_file.c, gp_index_v2.c): the header and the
 * section table (docs/FORMATS.md), the doc lengths section, and writing them. */
#ifndef GP_INDEX_FILE_H
#define GP_INDEX_FILE_H

#include "gp_index.h"

#define GP_IXF_HEADER 64
#define GP_IXF_SECTION 24
#define GP_IXF_LENGTHS_HEAD 24   /* k1, b (f64), the table's entries (u32), 4 zero bytes */

/* A section to write: its id, bytes (NULL: written by the caller after the others) and length;
 * crc: its checksum goes in the table (else 0). */
typedef struct gp_ixf_section {
	uint32_t id;
	const uint8_t *data;
	uint64_t len;
	int crc;
} gp_ixf_section;

/* The header (version, ix's counts) and the table of the n sections, each at the next multiple
 * of 8 in the order given. */
int gp_ixf_write_head(const gp_index *ix, uint32_t version, const gp_ixf_section *s, int n,
                      gp_index_writer write, void *ctx);
/* A section's bytes and the zeros to the next multiple of 8; the zeros after `len` bytes. */
int gp_ixf_write_section(const gp_ixf_section *s, gp_index_writer write, void *ctx);
int gp_ixf_write_pad(uint64_t len, gp_index_writer write, void *ctx);
/* The doc lengths section's bytes (malloc'd; NULL when the host has not the memory). */
uint8_t *gp_ixf_lengths_bytes(const gp_index *ix, uint64_t *len);

#endif
