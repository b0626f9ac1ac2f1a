/* What the PHP face's arrays cost, as Zend lays them out (PHP 8.2): a packed array holds zvals, a
 * hash buckets and hash slots, rounded as Zend's allocator rounds them. The engine knows none of
 * this: these sizes reach it through the budget's face (gpupost_php_face), with the names PHP's
 * users know the limits by. tests/066 measures them against memory_get_usage(). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"

#include "php_gpupost.h"
#include "php_gpupost_glue.h"

/* Zend's small bins (zend_alloc_sizes.h); larger requests take whole 4 KiB pages. */
static const uint16_t zend_bins[] = {
	8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512,
	640, 768, 896, 1024, 1280, 1536, 1792, 2048, 2560, 3072,
};

uint64_t gp_zend_alloc_bytes(uint64_t size)
{
	if (size <= 3072) {
		for (size_t i = 0; i < sizeof(zend_bins) / sizeof(zend_bins[0]); i++) {
			if (size <= zend_bins[i]) return zend_bins[i];
		}
	}
	return size > UINT64_MAX - 4095 ? UINT64_MAX : (size + 4095) & ~(uint64_t)4095;
}

enum {
	ZEND_ARRAY_BYTES = 56,     /* sizeof(zend_array) */
	ZVAL_BYTES = 16,           /* a packed array's slot */
	BUCKET_BYTES = 32,         /* a hash's slot */
	HASH_MIN_SLOTS = 8,        /* HT_MIN_SIZE */
};

/* Slots Zend gives a table sized for n: HT_MIN_SIZE, or n rounded up to a power of two. */
static uint64_t table_slots(uint64_t n)
{
	uint64_t t = HASH_MIN_SLOTS;
	while (t < n) {
		if (t > UINT64_MAX / 2) return UINT64_MAX;
		t *= 2;
	}
	return t;
}

static uint64_t packed_data_bytes(uint64_t slots)
{
	/* the zvals and the two hash words of HT_MIN_MASK */
	return gp_zend_alloc_bytes(gp_add_sat(gp_mul_sat(slots, ZVAL_BYTES), 8));
}

uint64_t gp_php_list_bytes(uint64_t n)
{
	if (n == 0) return ZEND_ARRAY_BYTES;
	return gp_add_sat(ZEND_ARRAY_BYTES, packed_data_bytes(table_slots(n)));
}

uint64_t gp_php_map_bytes(uint64_t n)
{
	if (n == 0) return ZEND_ARRAY_BYTES;
	uint64_t t = table_slots(n);
	/* buckets and two uint32 hash slots per bucket, plus the packed table it may start as */
	uint64_t mixed = gp_zend_alloc_bytes(gp_mul_sat(t, BUCKET_BYTES + 8));
	return gp_add_sat(gp_add_sat(ZEND_ARRAY_BYTES, mixed), packed_data_bytes(t));
}

uint64_t gp_php_lists_floor(uint64_t values, uint64_t lists)
{
	if (lists <= 1) return gp_php_list_bytes(values);
	/* each list at least its zend_array and a zval per value, under the batch's map */
	return gp_add_sat(gp_php_map_bytes(lists),
	                  gp_add_sat(gp_mul_sat(lists, ZEND_ARRAY_BYTES), gp_mul_sat(values, ZVAL_BYTES)));
}

uint64_t gp_php_postings_floor(uint64_t postings, uint64_t positions, uint64_t blobs)
{
	uint64_t maps = blobs <= 1 ? gp_php_map_bytes(postings)
	                           : gp_add_sat(gp_php_map_bytes(blobs),
	                                        gp_add_sat(gp_mul_sat(blobs, ZEND_ARRAY_BYTES),
	                                                   gp_mul_sat(postings, BUCKET_BYTES + 8)));
	uint64_t arrays = gp_add_sat(gp_mul_sat(postings, ZEND_ARRAY_BYTES), gp_mul_sat(positions, ZVAL_BYTES));
	return gp_add_sat(maps, arrays);
}

const gp_face gpupost_php_face = {
	gp_php_list_bytes, gp_php_map_bytes, gp_php_lists_floor, gp_php_postings_floor,
	"PHP memory", "memory_limit leaves", "gpupost.max_result_bytes",
};
