#include <stdio.h>

#include "gp_budget.h"

int gp_budget_check(const gp_budget *b, uint64_t face_bytes, uint64_t c_bytes, const char *what,
                    gp_error *err)
{
	if (!b) return GP_OK;
	uint64_t total = gp_add_sat(face_bytes, c_bytes);
	int over_cap = total > b->max_result;
	if (!over_cap && face_bytes <= b->memory_left) return GP_OK;
	if (err) {
		err->code = GP_ENOMEM;
		err->format = "memory";
		err->offset = 0;
		err->cl_status = 0;
		/* the limits by the face's names for them, or by their roles */
		if (over_cap) {
			snprintf(err->rule, sizeof(err->rule), "%s would need %llu bytes, more than %s (%llu)", what,
			         (unsigned long long)total, b->face ? b->face->cap : "the cap on a call's results",
			         (unsigned long long)b->max_result);
		} else {
			snprintf(err->rule, sizeof(err->rule), "%s would need %llu bytes of %s, more than %s (%llu)", what,
			         (unsigned long long)face_bytes, b->face ? b->face->memory : "the face's memory",
			         b->face ? b->face->room : "its room left", (unsigned long long)b->memory_left);
		}
	}
	return GP_ENOMEM;
}
