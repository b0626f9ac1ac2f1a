/* The host path's batch drivers, one per format: every blob validated whole and counted, the
 * result checked against its budget, allocated once, and each blob decoded into its slice. The
 * device's launchers fill the same gp_result; the dispatch picks one or the other. No PHP, no
 * OpenCL. Errors: GP_EFORMAT (err->blob says which blob), GP_ENOMEM. */
#ifndef GP_BATCH_H
#define GP_BATCH_H

#include "gp_mod9.h"
#include "gp_result.h"

/* A decode's input, as both paths take it: the blobs, the output mode (MOD9), and the blobs'
 * estimate (MOD9: it sizes what the device brings back with the sizes). */
typedef struct gp_batch_in {
	const uint8_t *const *blobs;
	const size_t *lens;
	size_t n_blobs;
	int mode;
	gp_mod9_counts est;
} gp_batch_in;

int gp_mod9_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err);
int gp_s9_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err);
int gp_qs_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err);
int gp_vbyte_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err);
int gp_gvarint_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err);
/* WAH: the set rows of each bitmap. */
int gp_wah_rows_batch(const gp_batch_in *in, gp_result *r, gp_error *err);

/* GP_ENOMEM, with err saying the host could not allocate the result. */
int gp_fail_nomem(gp_error *err);

#endif
