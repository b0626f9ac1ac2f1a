/* One call's transfers, each sent or brought back once and the call waiting once. A decode names
 * its regions first: inputs (the blobs, host-made tables), control words (the error word, what a
 * pass starts from: sent, then brought back), results the kernels start themselves (brought
 * back), outputs (brought back as far as the host expects) and device-only scratch. Each region is a buffer of its own (a slot kept between calls), and
 * all of them lie side by side in one pinned host mirror: the host fills the inputs and control
 * words there, the writes go out without waiting, and the reads of the control words and outputs
 * land there, the last one blocking. Nothing is filled on the device, and nothing waits between
 * the write and the read. (One device buffer with a sub-buffer a region would make it one write
 * and one read; NVIDIA's driver crashed releasing such sub-buffers, so each region has its own.) */
#ifndef GP_CL_CALL_H
#define GP_CL_CALL_H

#include "gp_cl_internal.h"

enum { GP_IO_IN, GP_IO_CTRL, GP_IO_RESULT, GP_IO_OUT, GP_IO_DEVICE };
#define GP_CL_CALL_REGIONS 12

typedef struct gp_cl_region {
	int io;
	size_t bytes;
	size_t at;           /* its place in the mirror */
	cl_mem mem;          /* its buffer (after gp_cl_call_open) */
	uint8_t *host;       /* its place in the mirror */
} gp_cl_region;

typedef struct gp_cl_call {
	gp_cl_region r[GP_CL_CALL_REGIONS];
	unsigned n;
	size_t end;
	uint8_t *host;
} gp_cl_call;

void gp_cl_call_init(gp_cl_call *c);
/* Adds a region of `bytes` (io: GP_IO_*); its index. The blobs' region is the first added. */
int gp_cl_call_add(gp_cl_call *c, int io, size_t bytes);
/* Sizes the regions' buffers and the mirror: the host pointers are valid from here until the
 * next call opens. */
int gp_cl_call_open(gp_cl_call *c, gp_error *err);
/* Copies the parts (the blobs, back to back after `lead` zero bytes) into region 0, then writes
 * the inputs and control words, without waiting (a large region 0 on a GPU: by the upload's
 * threads, which wait). */
int gp_cl_call_send(gp_cl_call *c, const uint8_t *const *parts, const size_t *lens, size_t n_parts,
                    size_t lead, gp_error *err);
/* The one wait: the control words, the results and the first bytes[i] of output region
 * regions[i], for n regions, into the mirror (laid out anew where an output is past the 2 MiB
 * it holds of each). */
int gp_cl_call_receive(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n, gp_error *err);
/* A second round trip, where the first brought back less than the result: the first bytes[i]
 * of region regions[i], for n regions, one wait. The mirror may move: the host pointers of the
 * first read's regions mean nothing after it. */
int gp_cl_call_receive_more(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n,
                            gp_error *err);
/* The release of arrays lent from the mirror: nothing (the next call reuses it). */
void gp_cl_call_return(void *lent);

static inline uint32_t gp_cl_call_u32(const gp_cl_call *c, int region, size_t i)
{
	return ((const uint32_t *)c->r[region].host)[i];
}

#endif
