/* The upload: host ranges gathered into a device buffer, through pinned staging memory by a
 * pool of threads on a GPU, through a mapped write on a CPU device. */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#include "gp_cl_runtime.h"
#include "../codec/gp_pool.h"

/* memcpy into pinned staging memory with non-temporal stores: the bytes are for the DMA, not
 * for this core's cache, and a plain store first reads each line it fills (a third more memory
 * traffic on a host whose memory bandwidth the DMA shares). The caller fences before the bus
 * may read them. */
static void gp_copy_streaming(uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__x86_64__) || defined(_M_X64)
	size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
	if (head > n) head = n;
	memcpy(dst, src, head);
	size_t i = head;
	for (; i + 64 <= n; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(src + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
		__m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
		_mm_stream_si128((__m128i *)(dst + i), a);
		_mm_stream_si128((__m128i *)(dst + i + 16), b);
		_mm_stream_si128((__m128i *)(dst + i + 32), c);
		_mm_stream_si128((__m128i *)(dst + i + 48), d);
	}
	memcpy(dst + i, src + i, n - i);
#else
	memcpy(dst, src, n);
#endif
}

static void gp_copy_fence(void)
{
#if defined(__x86_64__) || defined(_M_X64)
	_mm_sfence();
#endif
}

/* Copies bytes [from, to) of the parts laid end to end into dst + from; `streaming` for
 * staging memory (see gp_copy_streaming). */
static void gp_copy_parts(uint8_t *dst, const uint8_t *const *parts, const size_t *lens,
                          size_t n_parts, size_t from, size_t to, int streaming)
{
	for (size_t i = 0, at = 0; i < n_parts && at < to; at += lens[i], i++) {
		size_t a = at > from ? at : from, b = at + lens[i] < to ? at + lens[i] : to;
		if (a >= b) continue;
		if (streaming) gp_copy_streaming(dst + a, parts[i] + (a - at), b - a);
		else memcpy(dst + a, parts[i] + (a - at), b - a);
	}
	if (streaming) gp_copy_fence();
}

/* A staged upload is shared among threads: one thread's memcpy moves a fraction of what the bus
 * takes from pinned memory. Each worker takes the next piece, copies it into the pinned staging
 * memory and enqueues its write at once (OpenCL queues are thread-safe), so the DMA overlaps
 * the copies. The workers are a pool kept between calls (gp_pool.c). The first pieces are small
 * and grow (doubling every round of workers up to GP_UPLOAD_PIECE), so that the DMA starts early
 * and the later writes stay few. Fewer workers than cores: copying threads beside a DMA slow it.
 * Registering the caller's memory with the driver instead (CL_MEM_USE_HOST_PTR) is slower: the
 * driver pins pages on every call. The measurements behind these choices: docs/BENCHMARKS.md
 * (uploads) and bench/experiments/upload_pipeline.c. */
#define GP_UPLOAD_THREADS_DEFAULT 7
#define GP_UPLOAD_FIRST ((size_t)256 << 10)
#define GP_UPLOAD_PIECE ((size_t)4 << 20)

typedef struct gp_upload_job {
	const uint8_t *const *parts;
	const size_t *lens;
	size_t n_parts, total, first, piece, workers;
	size_t base;             /* where in mem byte 0 of the parts goes */
	uint8_t *pinned;
	cl_mem mem;
	cl_command_queue queue;  /* the caller's device's (workers have no device selected) */
	atomic_size_t next;      /* the next piece to take */
	atomic_int status;       /* the first failure; the others stop taking pieces */
} gp_upload_job;

/* Where piece k starts: `workers` pieces of `first` bytes, as many of twice that, and so on up
 * to `piece` bytes, which the rest have. A piece ends where the next starts, so the pieces
 * cover the blob whatever the plan. */
static size_t gp_upload_piece_start(const gp_upload_job *job, size_t k)
{
	size_t at = 0, size = job->first;
	while (size < job->piece && k >= job->workers) {
		at += job->workers * size;
		k -= job->workers;
		size *= 2;
	}
	if (size > job->piece) size = job->piece;
	return at + k * size;
}

static void gp_upload_worker(void *arg)
{
	gp_upload_job *job = arg;
	while (atomic_load(&job->status) == CL_SUCCESS) {
		size_t k = atomic_fetch_add(&job->next, 1);
		size_t a = gp_upload_piece_start(job, k);
		if (a >= job->total) break;
		size_t b = gp_upload_piece_start(job, k + 1);
		if (b > job->total) b = job->total;
		gp_copy_parts(job->pinned, job->parts, job->lens, job->n_parts, a, b, 1);
		if (job->workers == 1) GP_TRACE("staging copy");   /* (threads would race for the trace) */
		cl_int st = clEnqueueWriteBuffer(job->queue, job->mem, CL_FALSE, job->base + a, b - a, job->pinned + a,
		                                 0, NULL, NULL);
		if (job->workers == 1) GP_TRACE("write enqueued");
		if (st != CL_SUCCESS) {
			int ok = CL_SUCCESS;
			atomic_compare_exchange_strong(&job->status, &ok, st);
		}
	}
}

void gp_cl_set_upload_plan(size_t threads, size_t first_kb, size_t piece_kb)
{
	gp_cl.knobs.upload_threads = threads;
	gp_cl.knobs.upload_first_kb = first_kb;
	gp_cl.knobs.upload_piece_kb = piece_kb;
}

/* A knob's value, or the default where it is 0. */
static size_t knob_or(size_t knob, size_t fallback)
{
	return knob ? knob : fallback;
}

cl_int gp_cl_upload_staged(cl_mem mem, size_t base, uint8_t *pinned, const uint8_t *const *parts,
                           const size_t *lens, size_t n_parts, size_t total)
{
#ifdef GP_TEST_HOOKS
	{   /* test builds follow the environment at every upload (tests/038 changes the plan) */
		gp_cl_knobs now;
		gp_cl_knobs_read(&now);
		gp_cl_set_upload_plan(now.upload_threads, now.upload_first_kb, now.upload_piece_kb);
	}
#endif
	gp_upload_job job = {
		.parts = parts, .lens = lens, .n_parts = n_parts, .total = total,
		.first = knob_or(gp_cl.knobs.upload_first_kb, GP_UPLOAD_FIRST >> 10) << 10,
		.piece = knob_or(gp_cl.knobs.upload_piece_kb, GP_UPLOAD_PIECE >> 10) << 10,
		.pinned = pinned, .mem = mem, .base = base, .queue = gp_cl.queue,
	};
	if (job.piece < ((size_t)64 << 10)) job.piece = (size_t)64 << 10;
	if (job.first < ((size_t)64 << 10) || job.first > job.piece) job.first = job.piece;
	atomic_init(&job.next, 0);
	atomic_init(&job.status, CL_SUCCESS);
	size_t n = 1;
	if (total >= GP_UPLOAD_MIN_THREADED) {
		static long cpus;   /* sysconf reads /sys on every call */
		if (!cpus) cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = knob_or(gp_cl.knobs.upload_threads, GP_UPLOAD_THREADS_DEFAULT);
		if (cpus > 0 && n > (size_t)cpus) n = (size_t)cpus;
		if (n > GP_POOL_MAX) n = GP_POOL_MAX;
	}
	job.workers = n;
	gp_pool_run(n, gp_upload_worker, &job);
	/* the staging memory is reused by the next upload: wait until the writes have read it */
	cl_int fin = clFinish(gp_cl.queue);
	GP_TRACE("upload: clFinish");
	cl_int st = atomic_load(&job.status);
	return st != CL_SUCCESS ? st : fin;
}

/* A small upload on a GPU: copied to the next free place in the pinned staging memory (a
 * ring: nothing waits until it wraps around) and written without waiting. */
static cl_int gp_upload_ring(cl_mem mem, const uint8_t *const *parts, const size_t *lens,
                             size_t n_parts, size_t total, gp_error *err)
{
	const size_t ring = (size_t)256 << 10;
	size_t at = gp_cl.stage_in_at;
	if (at + total > gp_cl_buffer_capacity(GP_B_STAGE_IN)) {
		cl_int st = clFinish(gp_cl.queue);   /* every write from the ring has run */
		if (st != CL_SUCCESS) return st;
		at = 0;
	}
	uint8_t *pinned = gp_cl_pinned(GP_B_STAGE_IN, total > ring ? total : ring, err);
	if (!pinned) return err->cl_status ? err->cl_status : CL_OUT_OF_HOST_MEMORY;
	gp_copy_parts(pinned + at, parts, lens, n_parts, 0, total, 0);
	GP_TRACE("staging copy");
	cl_int st = clEnqueueWriteBuffer(gp_cl.queue, mem, CL_FALSE, 0, total, pinned + at, 0, NULL, NULL);
	GP_TRACE("write enqueued");
	gp_cl.stage_in_at = (at + total + 63) & ~(size_t)63;
	return st;
}

cl_mem gp_cl_upload(gp_buffer_id id, const uint8_t *const *parts, const size_t *lens,
                    size_t n_parts, size_t total, gp_error *err)
{
	/* On a GPU the parts are gathered in pinned staging memory: a small upload at the ring's next
	 * free place, written without waiting (gp_upload_ring); a large one by threads, piece by
	 * piece, each piece written as soon as it is there (gp_cl_upload_staged). A CPU device shares
	 * host memory, so its buffer is mapped and written directly. */
	cl_int st;
	cl_mem mem = gp_cl_buffer(id, total, err);
	uint8_t *dst;
	if (!mem) return NULL;
	if (total == 0) return mem;
	if (gp_cl_staged() && total < GP_UPLOAD_MIN_THREADED) {
		st = gp_upload_ring(mem, parts, lens, n_parts, total, err);
		if (st != CL_SUCCESS) {
			if (!err->code) gp_cl_fail(err, st, "clEnqueueWriteBuffer");
			return NULL;
		}
		return mem;
	}
	if (gp_cl_staged()) {
		/* the ring's writes may still read the staging memory this copy reuses */
		if (gp_cl.stage_in_at && (st = clFinish(gp_cl.queue)) != CL_SUCCESS) {
			gp_cl_fail(err, st, "clFinish");
			return NULL;
		}
		gp_cl.stage_in_at = 0;   /* (this upload waits: the ring starts again after it) */
		if (!(dst = gp_cl_pinned(GP_B_STAGE_IN, total, err))) return NULL;
		st = gp_cl_upload_staged(mem, 0, dst, parts, lens, n_parts, total);
		if (st != CL_SUCCESS) {
			gp_cl_fail(err, st, "clEnqueueWriteBuffer");
			return NULL;
		}
		return mem;
	}
	dst = clEnqueueMapBuffer(gp_cl.queue, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, total,
	                         0, NULL, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueMapBuffer");
		return NULL;
	}
	GP_TRACE("upload: map (blocking)");
	gp_copy_parts(dst, parts, lens, n_parts, 0, total, 0);
	st = clEnqueueUnmapMemObject(gp_cl.queue, mem, dst, 0, NULL, NULL);
	GP_TRACE("upload: copy, unmap enqueued");
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueUnmapMemObject");
		return NULL;
	}
	return mem;
}
