/* unicode61's tokens of a text (query/gp_tokenize.h). */
#include <stdint.h>

#include "gp_tokenize.h"
#include "gp_unicode61_data.h"
#include "gp_porter.h"

/* A UTF-8 lead byte's own bits, as SQLite takes them (a byte from 0xF8 on too). */
static uint32_t lead_bits(uint32_t c)
{
	if (c < 0xE0) return c - 0xC0;
	if (c < 0xF0) return c - 0xE0;
	if (c < 0xF8) return c - 0xF0;
	if (c < 0xFC) return c - 0xF8;
	if (c < 0xFE) return c - 0xFC;
	return 0;
}

/* The next code point, as SQLite's READ_UTF8: a lead byte takes every continuation byte after
 * it; a result below 0x80, a surrogate, U+FFFE or U+FFFF is U+FFFD; a lone continuation byte
 * is the code point of its value. */
static uint32_t read_utf8(const unsigned char **p, const unsigned char *end)
{
	uint32_t c = *(*p)++;
	if (c >= 0xC0) {
		c = lead_bits(c);
		while (*p < end && (**p & 0xC0) == 0x80) c = (c << 6) + (0x3Fu & *(*p)++);
		if (c < 0x80 || (c & 0xFFFFF800u) == 0xD800 || (c & 0xFFFFFFFEu) == 0xFFFE) c = 0xFFFD;
	}
	return c;
}

int gp_unicode61_separates(uint32_t c)
{
	if (c < 0x80) return !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
	size_t lo = 0, hi = sizeof(gp_u61_separators) / sizeof(gp_u61_separators[0]);
	while (lo < hi) {   /* the first range whose last is at least c */
		size_t mid = lo + (hi - lo) / 2;
		if (gp_u61_separators[mid][1] < c) lo = mid + 1; else hi = mid;
	}
	return lo < sizeof(gp_u61_separators) / sizeof(gp_u61_separators[0]) && gp_u61_separators[lo][0] <= c;
}

/* A diacritic: continues a token, starts none. */
int gp_unicode61_diacritic(uint32_t c)
{
	size_t lo = 0, hi = sizeof(gp_u61_continuers) / sizeof(gp_u61_continuers[0]);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gp_u61_continuers[mid] < c) lo = mid + 1; else hi = mid;
	}
	return lo < sizeof(gp_u61_continuers) / sizeof(gp_u61_continuers[0]) && gp_u61_continuers[lo] == c;
}

/* The code point a token holds for c (0: none). */
static uint32_t fold(uint32_t c)
{
	if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
	size_t lo = 0, hi = sizeof(gp_u61_folds) / sizeof(gp_u61_folds[0]);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gp_u61_folds[mid][0] < c) lo = mid + 1; else hi = mid;
	}
	return lo < sizeof(gp_u61_folds) / sizeof(gp_u61_folds[0]) && gp_u61_folds[lo][0] == c ? gp_u61_folds[lo][1] : c;
}

/* c as SQLite's WRITE_UTF8 writes it (4 bytes for anything from U+10000, its low 21 bits). */
static size_t write_utf8(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 + ((c >> 6) & 0x1F));
		out[1] = (char)(0x80 + (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 + ((c >> 12) & 0x0F));
		out[1] = (char)(0x80 + ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 + (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 + ((c >> 18) & 0x07));
	out[1] = (char)(0x80 + ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 + ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 + (c & 0x3F));
	return 4;
}

int gp_tokenize_unicode61(const char *text, size_t len, gp_token_fn fn, void *ctx)
{
	char buf[GP_TOKEN_MAX + 4];
	const unsigned char *p = (const unsigned char *)text, *end = p + len;
	while (p < end) {
		/* the separators before the token, and diacritics there */
		uint32_t c = read_utf8(&p, end);
		if (gp_unicode61_separates(c) || gp_unicode61_diacritic(c)) continue;
		size_t n = 0;
		for (;;) {
			uint32_t f = fold(c);
			if (f && n < GP_TOKEN_MAX) n += write_utf8(f, buf + n);
			if (p >= end) break;
			c = read_utf8(&p, end);
			if (gp_unicode61_separates(c)) break;
		}
		int rc = fn(ctx, buf, n < GP_TOKEN_MAX ? n : GP_TOKEN_MAX);
		if (rc) return rc;
	}
	return 0;
}

/* The porter tokenizer's token: unicode61's, stemmed, to the caller. */
typedef struct porter_ctx {
	gp_token_fn fn;
	void *ctx;
} porter_ctx;

static int stem_token(void *ctx, const char *token, size_t len)
{
	porter_ctx *p = ctx;
	char out[GP_PORTER_MAX];
	if (len > GP_PORTER_MAX) return p->fn(p->ctx, token, len);
	return p->fn(p->ctx, out, gp_porter_stem(token, len, out));
}

int gp_tokenize(int tokenizer, const char *text, size_t len, gp_token_fn fn, void *ctx)
{
	if (tokenizer != GP_TOKENIZER_PORTER) return gp_tokenize_unicode61(text, len, fn, ctx);
	porter_ctx p = {fn, ctx};
	return gp_tokenize_unicode61(text, len, stem_token, &p);
}
