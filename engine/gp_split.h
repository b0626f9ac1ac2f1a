/* Work split over the devices a process uses (gpupost.multi_device=all): a batch's blobs cut
 * into one contiguous share per device, in proportion to each device's measured speed, the
 * shares run at once (a thread each, each thread's launchers on its device), and the parts
 * of the result chained in the blobs' order (gp_result's next). A share that fails on its device
 * runs again on one whose share succeeded; only when none can does the caller take the host
 * path. No PHP. */
#ifndef GP_SPLIT_H
#define GP_SPLIT_H

#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"
#include "../query/gp_query.h"

#define GP_SPLIT_MAX 8   /* shares of a call: the most devices a process uses */

/* The blobs' cut into at most n_devices shares: share s is blobs [first[s], first[s + 1]),
 * none empty; returns how many (1 when a split would not pay: one blob, one device). */
size_t gp_split_plan(const size_t *lens, size_t n_blobs, size_t n_devices, size_t *first);

typedef int (*gp_split_fn)(const gp_batch_in *in, gp_result *r, gp_error *err);

/* Runs fn on share s's input ins[s] on device s, all shares at once, and chains the parts into
 * r (whose budget each share's part of is checked against, in proportion to its bytes).
 * GP_OK; GP_EFORMAT (a kernel flagged a blob: the host decoder names it); GP_ENOMEM (a share
 * did not fit its part: the caller runs the batch unsplit); GP_EDEVICE when a failed share found
 * no device to take it. *failures counts the shares that failed on their device. */
int gp_split_run(gp_split_fn fn, const gp_batch_in *ins, size_t n_shares, gp_result *r, gp_error *err,
                 unsigned long *failures);

/* GpuPost\Index over the process's devices: the index cut by docs into one shard a device, in
 * proportion to their memory (gp_index_shard.c), each shard's lists resident on its device;
 * ix->device then holds the shards (ix->device_shards of them). GP_ENOMEM (a shard's host lists
 * over the budget), GP_EDEVICE. */
int gp_split_index_upload(gp_index *ix, size_t n_devices, const gp_budget *budget, gp_error *err,
                          unsigned long *failures);
/* A batch on every shard at once, the answers merged (ranked: the best `limit` by score, then
 * doc, as one device ranks them). GP_EDEVICE or GP_ENOMEM (a shard over its part of the budget):
 * the caller answers on the host. */
int gp_split_index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                         gp_answers *out, gp_error *err, unsigned long *failures);

#endif
