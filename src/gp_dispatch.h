/* Dispatch: one entry point per operation. Picks the host codec or the OpenCL device per call
 * (by expected size and gpupost.device), falls back to the host when the device fails, and lets
 * the host decoder name the offset and rule when a kernel flags a malformed blob. No PHP. */
#ifndef GP_DISPATCH_H
#define GP_DISPATCH_H

#include "../codec/gp_result.h"

enum { GP_FORMAT_MOD9 = 1, GP_FORMAT_S9 = 2, GP_FORMAT_QS = 3, GP_FORMAT_WAH = 4 };
enum { GP_OP_OR = 1, GP_OP_AND = 2 };

/* Decodes a batch (a single call is a batch of one). min_device_values: INI threshold. */
int gp_decode(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
              size_t n_blobs, long min_device_values, gp_result *r, gp_error *err);

/* WAH: the size of a blob's uncompressed bitmap (header only), then the bitmap itself into out
 * (that many bytes); AND/OR of many bitmaps of equal nbits to their set rows (r->v64). */
int gp_wah_bitmap_bytes(const uint8_t *blob, size_t len, uint64_t *bytes, gp_error *err);
int gp_wah_decompress(const uint8_t *blob, size_t len, long min_device_values, uint8_t *out,
                      gp_error *err);
int gp_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                 long min_device_values, gp_result *r, gp_error *err);

/* Running sums of n int64 values; *overflow set (and GP_EVALUE returned) when a sum does not
 * fit 64 bits. */
int gp_prefix_sum(const int64_t *in, size_t n, int inclusive, long min_device_values,
                  int64_t *out, size_t *overflow_at, gp_error *err);

/* "host" or "opencl": who ran the last operation in this process ("none" before any). */
const char *gp_last_backend(void);
/* How many device calls this process has seen fail (each then served by the host path). */
unsigned long gp_device_failures(void);
/* Whether an operation expecting `values` outputs would run on the device now. */
int gp_would_use_device(size_t values, long min_device_values);

#endif
