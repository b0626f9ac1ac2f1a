/* Memory: grow-only device buffer slots, pinned staging (mapped once, kept mapped), downloads
 * lent to results, reads and fills, and the trim between calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gp_cl_runtime.h"
#include "../codec/gp_pool.h"

/* A GPU gets transfers through pinned staging buffers; a CPU device (PoCL) shares host memory,
 * where the staging copy would only add a copy. */
int gp_cl_staged(void)
{
#ifdef GP_TEST_HOOKS
	/* GPUPOST_FORCE_STAGING=1 takes the GPU's transfer path on any device (tests/038) */
	const char *force = getenv("GPUPOST_FORCE_STAGING");
	if (force && strcmp(force, "1") == 0) return 1;
#endif
	return gp_cl.info.type && strcmp(gp_cl.info.type, "cpu") != 0;
}

/* Every device buffer is released here: a later buffer may get a released one's handle, so
 * the kernels' argument memos (gp_cl_internal.h) stop trusting what they hold. */
static void gp_cl_mem_release(cl_mem m)
{
	gp_cl.mem_generation++;
	clReleaseMemObject(m);
}

static void gp_cl_release_slot(gp_cl_buffer_slot *slot)
{
	if (slot->host) {
		clEnqueueUnmapMemObject(gp_cl.queue, slot->mem, slot->host, 0, NULL, NULL);
		clFinish(gp_cl.queue);
		slot->host = NULL;
	}
	if (slot->mem) gp_cl_mem_release(slot->mem);
	slot->mem = NULL;
	slot->size = 0;
}

void gp_cl_release_buffers(void)
{
	if (gp_cl.mapped) gp_cl_unmap(gp_cl.mapped);
	for (int b = 0; b < GP_B_COUNT; b++) gp_cl_release_slot(&gp_cl.buffers[b]);
}

/* Bytes held in pinned staging slots (pinned = 1) or device-only slots (pinned = 0). */
static uint64_t gp_cl_held(int pinned)
{
	uint64_t held = 0;
	for (int b = 0; b < GP_B_COUNT; b++) {
		const gp_cl_buffer_slot *slot = &gp_cl.buffers[b];
		if (slot->mem && (slot->host != NULL) == pinned) held += slot->size;
	}
	return held;
}

/* Frees the largest slots of one kind until at most keep bytes of it are held. */
static void gp_cl_trim_kind(int pinned, uint64_t keep)
{
	uint64_t held = gp_cl_held(pinned);
	while (held > keep) {
		gp_cl_buffer_slot *largest = NULL;
		for (int b = 0; b < GP_B_COUNT; b++) {
			gp_cl_buffer_slot *slot = &gp_cl.buffers[b];
			if (slot->mem && (slot->host != NULL) == pinned && (!largest || slot->size > largest->size)) {
				largest = slot;
			}
		}
		held -= largest->size;
		gp_cl_release_slot(largest);
	}
}

/* Each device this process uses keeps an equal part of what the process may keep. */
uint64_t gp_cl_trim(uint64_t pinned_keep, uint64_t device_keep)
{
	size_t n = gp_cl_device_count();
	uint64_t kept = 0;
	gp_cl_runtime *was = gp_cl_current;
	for (size_t d = 0; d < n; d++) {
		gp_cl_current = &gp_cl_devices[d];
		if (!gp_cl_own()) continue;
		if (gp_cl.mapped) gp_cl_unmap(gp_cl.mapped);   /* no result is held between calls */
		gp_cl_trim_kind(1, pinned_keep / n);
		gp_cl_trim_kind(0, device_keep / n);
		kept += gp_cl_held(1);
	}
	gp_cl_current = was;
	return kept;
}

void gp_cl_cached(uint64_t *pinned, uint64_t *device)
{
	gp_cl_runtime *was = gp_cl_current;
	*pinned = *device = 0;
	for (size_t d = 0; d < gp_cl_device_count(); d++) {
		gp_cl_current = &gp_cl_devices[d];
		if (!gp_cl_own()) continue;
		*pinned += gp_cl_held(1);
		*device += gp_cl_held(0);
	}
	gp_cl_current = was;
}
#ifdef GP_TEST_HOOKS
int gp_cl_fault(const char *what)
{
	/* "launch" or "alloc" fails it on every device; "launch@1" on device 1 only (the device a
	 * thread selected: a split call's share) */
	const char *f = getenv("GPUPOST_FAULT");
	size_t n = strlen(what);
	if (!f || strncmp(f, what, n) != 0) return 0;
	return f[n] == '\0' || (f[n] == '@' && strtoul(f + n + 1, NULL, 10) == gp_cl_selected());
}
#endif

size_t gp_cl_buffer_capacity(gp_buffer_id id)
{
	return gp_cl.buffers[id].mem ? gp_cl.buffers[id].size : 0;
}

cl_mem gp_cl_buffer(gp_buffer_id id, size_t bytes, gp_error *err)
{
	gp_cl_buffer_slot *slot = &gp_cl.buffers[id];
	cl_int st;
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	if (bytes == 0) bytes = 64;
	if (slot->mem && slot->size >= bytes) return slot->mem;
	gp_cl_release_slot(slot);
	/* Grow by a quarter more than asked so that slowly growing inputs do not reallocate. */
	size_t want = bytes + bytes / 4;
	if (want < bytes || (gp_cl.info.max_alloc && want > gp_cl.info.max_alloc)) want = bytes;
	if (gp_cl.info.max_alloc && want > gp_cl.info.max_alloc) {
		gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "device buffer larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
		return NULL;
	}
	slot->mem = clCreateBuffer(gp_cl.context, CL_MEM_READ_WRITE, want, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clCreateBuffer");
		return NULL;
	}
	slot->size = want;
	return slot->mem;
}
cl_mem gp_cl_resident(const void *host, size_t bytes, gp_error *err)
{
	cl_int st;
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	if (gp_cl.info.max_alloc && bytes > gp_cl.info.max_alloc) {
		gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "resident list larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
		return NULL;
	}
	cl_mem m = clCreateBuffer(gp_cl.context, CL_MEM_READ_ONLY, bytes ? bytes : 4, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clCreateBuffer (resident)");
		return NULL;
	}
	/* a blocking write: from pinned memory (gp_cl_pinned_image) the DMA reads it directly */
	if (bytes && (st = clEnqueueWriteBuffer(gp_cl.queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL)) != CL_SUCCESS) {
		gp_cl_mem_release(m);
		gp_cl_fail(err, st, "clEnqueueWriteBuffer (resident)");
		return NULL;
	}
	return m;
}

void *gp_cl_pinned_image(size_t bytes, void **handle, gp_error *err)
{
	cl_int st;
	*handle = NULL;
	if (!gp_cl_staged()) return NULL;   /* a CPU device reads host memory as it is */
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	cl_mem m = clCreateBuffer(gp_cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes ? bytes : 4, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
		return NULL;
	}
	void *p = clEnqueueMapBuffer(gp_cl.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes ? bytes : 4, 0, NULL,
	                             NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_mem_release(m);
		gp_cl_fail(err, st, "clEnqueueMapBuffer (image)");
		return NULL;
	}
	*handle = m;
	return p;
}

void gp_cl_pinned_image_free(void *handle, void *p)
{
	if (!handle || !gp_cl_own()) return;
	clEnqueueUnmapMemObject(gp_cl.queue, (cl_mem)handle, p, 0, NULL, NULL);
	clFinish(gp_cl.queue);
	gp_cl_mem_release((cl_mem)handle);
}

void gp_cl_resident_release(cl_mem mem)
{
	if (mem && gp_cl_own()) gp_cl_mem_release(mem);
}

/* Pinned host memory of at least `bytes` for staging slot id: a CL_MEM_ALLOC_HOST_PTR buffer
 * mapped once and kept mapped, the host side of blocking reads and writes that then run at the
 * bus's speed (NVIDIA's recommended pattern). */
void *gp_cl_pinned(gp_buffer_id id, size_t bytes, gp_error *err)
{
	gp_cl_buffer_slot *slot = &gp_cl.buffers[id];
	cl_int st;
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	if (slot->host && slot->size >= bytes) return slot->host;
	gp_cl_release_slot(slot);
	size_t want = bytes + bytes / 4 > bytes ? bytes + bytes / 4 : bytes;
	if (want < 4096) want = 4096;
	slot->mem = clCreateBuffer(gp_cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, want, NULL, &st);
	if (st != CL_SUCCESS) {
		slot->mem = NULL;
		gp_cl_fail(err, st, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
		return NULL;
	}
	slot->host = clEnqueueMapBuffer(gp_cl.queue, slot->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, want,
	                                0, NULL, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_mem_release(slot->mem);
		slot->mem = NULL;
		slot->host = NULL;
		gp_cl_fail(err, st, "clEnqueueMapBuffer(staging)");
		return NULL;
	}
	slot->size = want;
	return slot->host;
}

void *gp_cl_download_parts(const cl_mem *srcs, const size_t *bytes, size_t n, size_t *at,
                           size_t *total, gp_error *err)
{
	size_t end = 0;
	for (size_t i = 0; i < n; i++) {   /* each part at a 64-byte boundary */
		at[i] = end;
		end += (bytes[i] + 63) & ~(size_t)63;
	}
	if (gp_cl.mapped) gp_cl_unmap(gp_cl.mapped);
	uint8_t *pinned = gp_cl_pinned(GP_B_STAGE_OUT, end, err);
	if (!pinned) return NULL;
	cl_int st = CL_SUCCESS;
	for (size_t i = 0; i < n && st == CL_SUCCESS; i++) {
		if (bytes[i]) {
			st = clEnqueueReadBuffer(gp_cl.queue, srcs[i], CL_FALSE, 0, bytes[i], pinned + at[i], 0,
			                         NULL, NULL);
		}
	}
	GP_TRACE("download: reads enqueued");
	cl_int fin = clFinish(gp_cl.queue);   /* the reads land before the memory is used or reused */
	GP_TRACE("download: clFinish");
	if (st != CL_SUCCESS || fin != CL_SUCCESS) {
		gp_cl_fail(err, st != CL_SUCCESS ? st : fin, "clEnqueueReadBuffer");
		return NULL;
	}
	gp_cl.mapped = pinned;
	gp_cl.mapped_mem = NULL;   /* stays mapped: nothing to unmap */
	*total = end;
	return pinned;
}

void *gp_cl_download_mapped(cl_mem src, size_t bytes, gp_error *err)
{
	cl_int st;
	if (gp_cl_staged()) {   /* a read into the pinned staging memory, lent until the next call */
		size_t at, total;
		return gp_cl_download_parts(&src, &bytes, 1, &at, &total, err);
	}
	if (gp_cl.mapped) gp_cl_unmap(gp_cl.mapped);
	void *p = clEnqueueMapBuffer(gp_cl.queue, src, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &st);
	GP_TRACE("download: map (blocking)");
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueMapBuffer");
		return NULL;
	}
	gp_cl.mapped = p;
	gp_cl.mapped_mem = src;
	return p;
}

/* A result's arrays may lie in any device's mapping (a call split over several devices):
 * the device that lent p takes it back. */
void gp_cl_unmap(void *p)
{
	if (!p) return;
	gp_cl_runtime *owner = NULL;
	for (int d = 0; d < GP_CL_MAX_DEVICES && !owner; d++) {
		if (gp_cl_devices[d].mapped == p) owner = &gp_cl_devices[d];
	}
	if (!owner) return;
	if (owner->state == GP_CL_READY && owner->pid == gp_self_pid() && owner->mapped_mem) {
		clEnqueueUnmapMemObject(owner->queue, owner->mapped_mem, p, 0, NULL, NULL);
		clFinish(owner->queue);
		GP_TRACE("unmap + clFinish");
	}
	owner->mapped = NULL;
	owner->mapped_mem = NULL;
}

int gp_cl_read_parts(const gp_cl_read_part *parts, size_t n, gp_error *err)
{
	/* not blocking, then one clFinish: as a call's reads (gp_cl_call.c) */
	cl_int st = CL_SUCCESS;
	size_t enqueued = 0;
	for (size_t i = 0; i < n && st == CL_SUCCESS; i++) {
		if (parts[i].bytes == 0) continue;
		st = clEnqueueReadBuffer(gp_cl_queue(), parts[i].mem, CL_FALSE, parts[i].offset, parts[i].bytes,
		                         parts[i].dst, 0, NULL, NULL);
		enqueued++;
	}
	if (enqueued == 0) return GP_OK;
	cl_int fin = clFinish(gp_cl_queue());   /* also when one failed: the others write into dst */
	GP_TRACE("read landed (clFinish)");
	if (st == CL_SUCCESS) st = fin;
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueReadBuffer");
}

int gp_cl_read_at(cl_mem mem, size_t offset, size_t bytes, void *dst, gp_error *err)
{
	const gp_cl_read_part part = {mem, offset, bytes, dst};
	return gp_cl_read_parts(&part, 1, err);
}

int gp_cl_read(cl_mem mem, size_t bytes, void *dst, gp_error *err)
{
	return gp_cl_read_at(mem, 0, bytes, dst, err);
}

int gp_cl_fill_u32(cl_mem mem, cl_uint pattern, size_t bytes, gp_error *err)
{
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), mem, &pattern, sizeof(pattern), 0, bytes, 0,
	                                NULL, NULL);
	GP_TRACE("fill enqueued");
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueFillBuffer");
}

