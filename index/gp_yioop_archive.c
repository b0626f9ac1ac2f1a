/* A Yioop WebArchive record (Yioop 2019-2021: WebArchive::getObjects with GzipCompressor): a
 * 20-byte gzip member of the empty string whose MTIME field holds, big-endian, the length of the
 * member that follows; that member is gzencode() of the serialized page. Yioop inflates it from
 * byte 10 and ignores its trailer; here the header is checked to be the one gzencode writes and
 * the trailer's CRC-32 and size are checked against what was inflated, so that a damaged record
 * is an error, never another page. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gp_yioop_archive.h"

#define YA_NAME GP_YIOOP_ARCHIVE_NAME
#define YA_HEADER 10      /* a gzip member's fixed header */
#define YA_TRAILER 8      /* CRC-32 and ISIZE, little-endian */

static int read_at(int fd, uint8_t *buf, size_t len, uint64_t offset, gp_error *err)
{
	for (size_t got = 0; got < len;) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)(offset + got));
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) {
			gp_fail(err, YA_NAME, (size_t)(offset + got), "cannot be read: %s", n < 0 ? strerror(errno) : "the file ended");
			err->code = GP_EVALUE;
			return GP_EVALUE;
		}
		got += (size_t)n;
	}
	return GP_OK;
}

/* Whether a gzip member's first bytes are those gzencode() writes: the magic, deflate, no flags
 * (so its data begins at byte 10, where Yioop starts inflating). */
static int plain_gzip(const uint8_t *h)
{
	return h[0] == 0x1f && h[1] == 0x8b && h[2] == 8 && h[3] == 0;
}

int gp_yioop_archive_record(int fd, uint64_t file_len, uint64_t offset, const gp_budget *budget, uint8_t **out,
                            size_t *out_len, uint64_t *next, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	*out = NULL;
	*out_len = 0;
	uint8_t prefix[GP_YIOOP_ARCHIVE_PREFIX];
	if (offset > file_len || file_len - offset < GP_YIOOP_ARCHIVE_PREFIX) {
		return gp_fail(err, YA_NAME, (size_t)offset, "no record at offset %llu of a %llu-byte archive",
		               (unsigned long long)offset, (unsigned long long)file_len);
	}
	int rc = read_at(fd, prefix, sizeof(prefix), offset, err);
	if (rc != GP_OK) return rc;
	if (!plain_gzip(prefix)) return gp_fail(err, YA_NAME, (size_t)offset, "no record's length prefix (a gzip header) here");
	const uint64_t len = gp_load_be32(prefix + 4), at = offset + GP_YIOOP_ARCHIVE_PREFIX;
	if (len < YA_HEADER + YA_TRAILER + 2 || len > file_len - at) {
		return gp_fail(err, YA_NAME, (size_t)offset + 4, "record length %llu is not that of a gzip member within the "
		               "%llu bytes after it", (unsigned long long)len, (unsigned long long)(file_len - at));
	}
	if (gp_budget_check(budget, 0, len, "a Yioop summary record", err) != GP_OK) return GP_ENOMEM;
	uint8_t *member = malloc((size_t)len);
	if (!member) {
		gp_fail(err, YA_NAME, 0, "no memory for a record of %llu bytes", (unsigned long long)len);
		err->code = GP_ENOMEM;
		return GP_ENOMEM;
	}
	uint8_t *text = NULL;
	if ((rc = read_at(fd, member, (size_t)len, at, err)) != GP_OK) goto done;
	if (!plain_gzip(member)) {
		rc = gp_fail(err, YA_NAME, (size_t)at, "the record is not a gzip member as gzencode() writes it (magic, "
		             "deflate, no header fields)");
		goto done;
	}
	const uint8_t *trailer = member + len - YA_TRAILER;
	const uint32_t crc = (uint32_t)trailer[0] | (uint32_t)trailer[1] << 8 | (uint32_t)trailer[2] << 16 | (uint32_t)trailer[3] << 24;
	const uint32_t size = (uint32_t)trailer[4] | (uint32_t)trailer[5] << 8 | (uint32_t)trailer[6] << 16 | (uint32_t)trailer[7] << 24;
	/* the inflated size is the trailer's (mod 2^32: a record of 4 GiB or more is refused by it) */
	if (size >= UINT32_MAX - 1) {
		rc = gp_fail(err, YA_NAME, (size_t)(at + len - 4), "the record's size %u is past what a record holds", size);
		goto done;
	}
	if (gp_budget_check(budget, 0, len + (uint64_t)size + 1, "a Yioop summary record", err) != GP_OK) {
		rc = GP_ENOMEM;
		goto done;
	}
	if (!(text = malloc((size_t)size + 1))) {
		gp_fail(err, YA_NAME, 0, "no memory for a record of %u bytes", size);
		rc = err->code = GP_ENOMEM;
		goto done;
	}
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
		gp_fail(err, YA_NAME, 0, "zlib could not start inflating");
		rc = err->code = GP_ENOMEM;
		goto done;
	}
	const size_t deflated = (size_t)len - YA_HEADER - YA_TRAILER;
	zs.next_in = member + YA_HEADER;
	zs.avail_in = (uInt)deflated;
	zs.next_out = text;
	zs.avail_out = (uInt)size + 1;   /* one byte more: a stream longer than its trailer says shows */
	int z = inflate(&zs, Z_FINISH);
	const size_t used = deflated - zs.avail_in, made = (size_t)size + 1 - zs.avail_out;
	inflateEnd(&zs);
	if (z != Z_STREAM_END) {
		rc = gp_fail(err, YA_NAME, (size_t)(at + YA_HEADER + used), "%s",
		             z == Z_DATA_ERROR ? "the deflate stream is damaged"
		             : made > size ? "the record inflates past the size its trailer gives"
		                           : "the deflate stream ends before the record does");
		goto done;
	}
	if (used != deflated) {
		rc = gp_fail(err, YA_NAME, (size_t)(at + YA_HEADER + used), "the deflate stream ends %zu bytes before the "
		             "record's trailer", deflated - used);
		goto done;
	}
	if (made != size || (uint32_t)crc32(0L, text, (uInt)made) != crc) {
		rc = gp_fail(err, YA_NAME, (size_t)(at + len - YA_TRAILER), "the record's CRC-32 or size disagrees with what "
		             "it inflates to");
		goto done;
	}
	text[made] = '\0';
	*out = text;
	*out_len = made;
	*next = at + len;
	text = NULL;
	rc = GP_OK;
done:
	free(member);
	free(text);
	return rc;
}
