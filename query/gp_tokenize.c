/* unicode61's tokens of a text, as far as ASCII (query/gp_tokenize.h). */
#include "gp_tokenize.h"

static inline int token_byte(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int gp_tokenize_unicode61(const char *text, size_t len, gp_token_fn fn, void *ctx)
{
	char buf[GP_TOKEN_MAX];
	size_t i = 0;
	while (i < len) {
		while (i < len && !token_byte((unsigned char)text[i])) i++;
		if (i == len) break;
		size_t n = 0;
		for (; i < len && token_byte((unsigned char)text[i]); i++) {
			unsigned char c = (unsigned char)text[i];
			if (n < GP_TOKEN_MAX) buf[n++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
		}
		int rc = fn(ctx, buf, n);
		if (rc) return rc;
	}
	return 0;
}
