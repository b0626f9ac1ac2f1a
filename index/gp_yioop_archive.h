/* Yioop's WebArchive files (a bundle's summaries/web_archive_G.txt.gz: docs/FORMATS.md, "Yioop
 * WebArchive records"): a record read at its offset and inflated, its gzip member's checksum and
 * size checked. No PHP: the record is the bytes of PHP's serialize() of a page, which the face
 * unserializes. */
#ifndef GP_YIOOP_ARCHIVE_H
#define GP_YIOOP_ARCHIVE_H

#include <stdint.h>
#include <stddef.h>

#include "../codec/gp_common.h"
#include "../codec/gp_budget.h"

#define GP_YIOOP_ARCHIVE_NAME "Yioop web archive"
/* Yioop's length prefix: the 20-byte gzip member of an empty string whose MTIME holds the
 * record's length (GzipCompressor::compressInt) */
#define GP_YIOOP_ARCHIVE_PREFIX 20

/* The record at byte `offset` of an archive file of file_len bytes read through fd (pread):
 * inflated into *out (malloc'd, *out_len bytes, NUL-terminated) within the budget (C bytes: its
 * compressed and inflated bytes), *next the offset of the record after it. GP_EFORMAT names the
 * file's byte and the rule (a prefix that is no length, a length past the file, a member that is
 * not gzip as Yioop writes it, a deflate stream that is damaged or ends early, a CRC or size that
 * disagrees); GP_ENOMEM; GP_EVALUE when the file cannot be read (errno's words in the rule). */
int gp_yioop_archive_record(int fd, uint64_t file_len, uint64_t offset, const gp_budget *budget, uint8_t **out,
                            size_t *out_len, uint64_t *next, gp_error *err);

#endif
