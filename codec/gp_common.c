#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_common.h"
#include "gp_result.h"

int gp_fail(gp_error *err, const char *format, size_t offset, const char *rule, ...)
{
	if (err) {
		va_list ap;
		err->format = format;
		err->offset = offset;
		err->cl_status = 0;
		va_start(ap, rule);
		vsnprintf(err->rule, sizeof(err->rule), rule, ap);
		va_end(ap);
	}
	return GP_EFORMAT;
}

void *gp_alloc_array(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size) {
		return NULL;
	}
	/* malloc(0) may return NULL; one byte keeps "no elements" distinct from "no memory". */
	return malloc(count * size != 0 ? count * size : 1);
}

void gp_result_free(gp_result *r)
{
	free(r->v32);
	free(r->v64);
	free(r->blob_values);
	free(r->blob_postings);
	free(r->docs);
	free(r->vstart);
	free(r->combined);
	free(r->pos);
	memset(r, 0, sizeof(*r));
}
