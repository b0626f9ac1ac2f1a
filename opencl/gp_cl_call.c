#include <string.h>

#include "gp_cl_call.h"
#include "gp_cl_runtime.h"

void gp_cl_call_init(gp_cl_call *c)
{
	memset(c, 0, sizeof(*c));
}

int gp_cl_call_add(gp_cl_call *c, int io, size_t bytes)
{
	if (c->n == GP_CL_CALL_REGIONS) return -1;   /* a launcher's fixed count: never */
	c->r[c->n].io = io;
	c->r[c->n].bytes = bytes;
	return (int)c->n++;
}

/* The mirror holds an output's first GP_CL_CALL_FIRST bytes (what a first read brings back: the
 * host's guesses stay under GP_CL_GUESS_BYTES), not its bound: a second read lays out what it
 * brings back anew (call_relayout). */
#define GP_CL_CALL_FIRST ((size_t)2 << 20)

static size_t mirror_bytes(const gp_cl_region *r)
{
	if (r->io == GP_IO_DEVICE) return 0;
	return r->io == GP_IO_OUT && r->bytes > GP_CL_CALL_FIRST ? GP_CL_CALL_FIRST : r->bytes;
}

int gp_cl_call_open(gp_cl_call *c, gp_error *err)
{
	size_t at = 0;
	for (unsigned i = 0; i < c->n; i++) {
		gp_cl_region *r = &c->r[i];
		r->at = at;
		at = (at + mirror_bytes(r) + 63) & ~(size_t)63;
	}
	c->end = at;
	/* the mirror is the last call's until its writes have run */
	if (gp_cl.call_pending) {
		cl_int st = clFinish(gp_cl.queue);
		gp_cl.call_pending = 0;
		if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clFinish");
	}
	if (!(c->host = gp_cl_pinned(GP_B_CALL_HOST, c->end, err))) return GP_EDEVICE;
	for (unsigned i = 0; i < c->n; i++) {
		gp_cl_region *r = &c->r[i];
		r->host = c->host + r->at;
		if (!(r->mem = gp_cl_buffer((gp_buffer_id)(GP_B_CALL_0 + i), r->bytes, err))) return GP_EDEVICE;
	}
	GP_TRACE("call laid out");
	return GP_OK;
}

int gp_cl_call_send(gp_cl_call *c, const uint8_t *const *parts, const size_t *lens, size_t n_parts,
                    size_t lead, gp_error *err)
{
	size_t total = lead;
	cl_int st = CL_SUCCESS;
	unsigned from = 0;
	for (size_t i = 0; i < n_parts; i++) total += lens[i];
	if (c->n == 0 || c->r[0].io != GP_IO_IN || c->r[0].bytes < total) {
		return gp_cl_fail(err, CL_INVALID_VALUE, "call without room for its blobs");
	}
	gp_cl.call_pending = 1;
	memset(c->host, 0, lead);
	if (total >= GP_UPLOAD_MIN_THREADED && gp_cl_staged()) {
		/* large: copied and written piece by piece by the upload's threads (it waits) */
		if (lead) st = clEnqueueWriteBuffer(gp_cl.queue, c->r[0].mem, CL_FALSE, 0, lead, c->host, 0, NULL, NULL);
		if (st == CL_SUCCESS) st = gp_cl_upload_staged(c->r[0].mem, lead, c->host + lead, parts, lens, n_parts, total - lead);
		from = 1;
	} else if (total >= GP_UPLOAD_MIN_THREADED) {
		/* large on a CPU device: written from the blobs where they are (one copy) */
		size_t at = lead;
		if (lead) st = clEnqueueWriteBuffer(gp_cl.queue, c->r[0].mem, CL_FALSE, 0, lead, c->host, 0, NULL, NULL);
		for (size_t i = 0; i < n_parts && st == CL_SUCCESS; at += lens[i], i++) {
			if (lens[i]) st = clEnqueueWriteBuffer(gp_cl.queue, c->r[0].mem, CL_FALSE, at, lens[i], parts[i], 0, NULL, NULL);
		}
		from = 1;
	} else {
		uint8_t *dst = c->host + lead;
		for (size_t i = 0; i < n_parts; dst += lens[i], i++) memcpy(dst, parts[i], lens[i]);
		GP_TRACE("call inputs copied");
	}
	for (unsigned i = from; i < c->n && st == CL_SUCCESS; i++) {
		const gp_cl_region *r = &c->r[i];
		if ((r->io == GP_IO_IN || r->io == GP_IO_CTRL) && r->bytes) {
			st = clEnqueueWriteBuffer(gp_cl.queue, r->mem, CL_FALSE, 0, r->bytes, r->host, 0, NULL, NULL);
			GP_TRACE("write enqueued");
		}
	}
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueWriteBuffer");
}

/* Room in the mirror for bytes[i] of regions[i], laid out after the rest (the mirror may move:
 * every region's host pointer is set again; what the first read brought back is gone). */
static int call_relayout(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	size_t at = c->end;
	for (size_t i = 0; i < n; i++) {
		c->r[regions[i]].at = at;
		at = (at + bytes[i] + 63) & ~(size_t)63;
	}
	if (!(c->host = gp_cl_pinned(GP_B_CALL_HOST, at, err))) return GP_EDEVICE;
	c->end = at;
	for (unsigned i = 0; i < c->n; i++) c->r[i].host = c->host + c->r[i].at;
	return GP_OK;
}

/* Room for what the reads bring back: laid out anew when an output is past its first bytes. */
static int call_room(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	for (size_t i = 0; i < n; i++) {
		if (bytes[i] > mirror_bytes(&c->r[regions[i]])) return call_relayout(c, regions, bytes, n, err);
	}
	return GP_OK;
}

/* Reads regions[i]'s first bytes[i] (and every control and result region whole when `ctrl`)
 * into the mirror, then waits once: the last read blocks. */
static int call_read(gp_cl_call *c, int ctrl, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	const gp_cl_region *part[2 * GP_CL_CALL_REGIONS];
	size_t len[2 * GP_CL_CALL_REGIONS], k = 0;
	for (unsigned i = 0; ctrl && i < c->n; i++) {
		if ((c->r[i].io == GP_IO_CTRL || c->r[i].io == GP_IO_RESULT) && c->r[i].bytes) {
			part[k] = &c->r[i];
			len[k++] = c->r[i].bytes;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int whole = c->r[regions[i]].io == GP_IO_CTRL || c->r[regions[i]].io == GP_IO_RESULT;
		if (bytes[i] && !(ctrl && whole)) {
			part[k] = &c->r[regions[i]];
			len[k++] = bytes[i];
		}
	}
	/* reads enqueued without blocking and one clFinish: on NVIDIA's driver the wait returns
	 * sooner than a blocking read's (bench/call_floor: "non-blocking read + clFinish") */
	cl_int st = CL_SUCCESS;
	for (size_t i = 0; i < k && st == CL_SUCCESS; i++) {
		st = clEnqueueReadBuffer(gp_cl.queue, part[i]->mem, CL_FALSE, 0, len[i], part[i]->host, 0, NULL, NULL);
		GP_TRACE("read enqueued");
	}
	cl_int fin = clFinish(gp_cl.queue);   /* also on failure: nothing may still land in the mirror */
	if (st == CL_SUCCESS) st = fin;
	gp_cl.call_pending = 0;
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueReadBuffer");
}

int gp_cl_call_receive(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	if (call_room(c, regions, bytes, n, err) != GP_OK) return GP_EDEVICE;
	int rc = call_read(c, 1, regions, bytes, n, err);
	GP_TRACE("reads landed (clFinish)");
	return rc;
}

int gp_cl_call_receive_more(gp_cl_call *c, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	if (call_room(c, regions, bytes, n, err) != GP_OK) return GP_EDEVICE;
	int rc = call_read(c, 0, regions, bytes, n, err);
	GP_TRACE("second read landed (clFinish)");
	return rc;
}

void gp_cl_call_return(void *lent)
{
	(void)lent;
}
