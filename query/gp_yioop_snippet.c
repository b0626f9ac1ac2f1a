/* Yioop's getSnippets without PCRE. Its pattern, per word W (preg_quote'd; /u: UTF-8 with
 * Unicode classes; /i: caseless):
 *
 *   \b (\w{3} .{0,17})? (?: (?: \bW1.{0,3}?\b | \bW2.{0,3}?\b | ... ) .{0,40}\b )+
 *
 * PCRE tries the optional prefix first (its .{0,17} longest first), and each iteration's
 * alternatives in order (a word's .{0,3}? shortest first, the .{0,40} longest first). Nothing
 * follows the loop, so an iteration keeps the first choice that succeeds and the loop stops at the
 * first iteration that cannot match: no choice is revisited once the first iteration has matched.
 * An iteration that finds its word always succeeds (.{0,40} may take nothing, and the word's end
 * is a boundary), so a match is: the first prefix length from which a word is found, then
 * iterations while words follow. preg_match_all takes matches left to right, each search from the
 * previous match's end. Lengths and quantifiers count code points, as mb_strlen and /u do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gp_yioop_snippet.h"
#include "gp_tokenize.h"
#include "../codec/gp_budget.h"

#define Y_LEFT 20            /* Model::SNIPPET_LENGTH_LEFT */
#define Y_RIGHT 40           /* Model::SNIPPET_LENGTH_RIGHT */
#define Y_MIN_SNIPPET 100    /* Model::MIN_SNIPPET_LENGTH */

/* a word: bytes (printable ASCII) */
typedef struct piece {
	const char *s;
	size_t n;
} piece;

/* the text's code points and where each begins; cp[n] = 0, at[n] = the text's length */
typedef struct subject {
	uint32_t *cp;
	uint32_t *at;
	size_t n;
	uint8_t *word;   /* \w of each code point */
	uint32_t *memo, *next;   /* room for a source's (range's) */
	void *block;     /* the one allocation all of them are in */
} subject;

typedef struct text_buf {
	char *p;
	size_t n, cap;
	size_t chars;    /* code points (the text is valid UTF-8) */
	int failed;
} text_buf;

static size_t utf8_chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

static void buf_add(text_buf *b, const char *s, size_t n)
{
	if (b->failed) return;
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->n + n + 1) cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
	b->chars += utf8_chars(s, n);
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Valid UTF-8 (what PCRE's /u accepts) into s, without the code points whose reading depends on
 * PCRE's newline convention or that \s treats apart (\n, \v, \f, \r, U+0085, U+2028, U+2029):
 * 1, or 0 (Yioop's PHP is to answer), -1 without memory. */
static int decode(const char *text, size_t len, subject *s)
{
	s->n = 0;
	if (len >= UINT32_MAX - 2) return 0;   /* positions are 32-bit */
	/* cp, at, memo, next: 4 bytes each a position (len + 2 of them), then word */
	s->block = malloc((len + 2) * (4 * sizeof(uint32_t) + 1));
	if (!s->block) return -1;
	s->cp = s->block;
	s->at = s->cp + len + 2;
	s->memo = s->at + len + 2;
	s->next = s->memo + len + 2;
	s->word = (uint8_t *)(s->next + len + 2);
	const unsigned char *p = (const unsigned char *)text;
	for (size_t i = 0; i < len;) {
		uint32_t c = p[i];
		size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
		if (k == 0 || i + k > len) return 0;
		if (k > 1) {
			c &= 0x3Fu >> (k - 1);
			for (size_t j = 1; j < k; j++) {
				if ((p[i + j] & 0xC0) != 0x80) return 0;
				c = (c << 6) | (p[i + j] & 0x3Fu);
			}
			const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
			if (c < least[k] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
		}
		if ((c >= 0x0A && c <= 0x0D) || c == 0x85 || c == 0x2028 || c == 0x2029) return 0;
		s->cp[s->n] = c;
		s->at[s->n] = (uint32_t)i;
		/* \w under PCRE's UCP: a letter or number (Unicode's L and N), or "_": what unicode61
		 * keeps in tokens (L*, N*, Co and its diacritics) less private use and diacritics */
		if (c < 0x80) {
			s->word[s->n] = c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
		} else {
			const int private_use = (c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000;
			s->word[s->n] = !gp_unicode61_separates(c) && !private_use && !gp_unicode61_diacritic(c);
		}
		s->n++;
		i += k;
	}
	s->cp[s->n] = 0;
	s->at[s->n] = (uint32_t)len;
	s->word[s->n] = 0;
	return 1;
}

/* positions [a, b) of the subject, as a subject of its own (its edges are non-word); memo[p - a]:
 * word_at's answer at p (1 none, else its end + 2); next[p - a]: the first position from p on
 * where a word is found (b + 1: none) */
typedef struct range {
	const subject *s;
	size_t a, b;
	uint32_t *memo, *next;
} range;

static int boundary(const range *r, size_t i)
{
	int before = i > r->a && r->s->word[i - 1];
	int after = i < r->b && r->s->word[i];
	return before != after;
}

/* a code point caselessly equal to ASCII w: itself in either case, or the non-ASCII letters
 * Unicode folds to an ASCII one (KELVIN SIGN to k, LONG S to s) */
static int same_letter(uint32_t c, unsigned char w)
{
	if (c < 0x80) return lower((unsigned char)c) == lower(w);
	return (c == 0x212A && lower(w) == 'k') || (c == 0x017F && lower(w) == 's');
}

/* \bW.{0,3}?\b at p for the first word that fits (in order): its end, or 0 with none */
static int word_find(const range *r, size_t p, const piece *w, size_t n_words, size_t *end)
{
	if (!boundary(r, p)) return 0;
	const uint32_t *cp = r->s->cp;
	for (size_t k = 0; k < n_words; k++) {
		if (p + w[k].n > r->b) continue;
		size_t i = 0;
		while (i < w[k].n && same_letter(cp[p + i], (unsigned char)w[k].s[i])) i++;
		if (i < w[k].n) continue;
		for (size_t extra = 0; extra <= 3 && p + w[k].n + extra <= r->b; extra++) {
			if (boundary(r, p + w[k].n + extra)) {
				*end = p + w[k].n + extra;
				return 1;
			}
		}
	}
	return 0;
}

static int word_at(const range *r, size_t p, const piece *w, size_t n_words, size_t *end)
{
	(void)w;
	(void)n_words;
	const size_t m = r->memo[p - r->a];
	if (m == 1) return 0;
	*end = m - 2;
	return 1;
}

/* memo and next for every position of r: a word is looked for only where a boundary is and its
 * first letter could be */
static void find_words(range *r, const piece *w, size_t n_words)
{
	uint8_t first[128] = {0};
	for (size_t k = 0; k < n_words; k++) {
		const unsigned char c = (unsigned char)w[k].s[0];
		first[lower(c)] = first[c >= 'a' && c <= 'z' ? c - 32 : c] = 1;
	}
	const uint8_t *word = r->s->word;
	const uint32_t *cp = r->s->cp;
	const size_t n = r->b - r->a;
	r->next[n + 1] = (uint32_t)r->b + 1;
	for (size_t i = n + 1; i-- > 0;) {
		const size_t p = r->a + i;
		size_t end;
		int could = 0;
		if (p < r->b && (p > r->a && word[p - 1]) != word[p]) {
			const uint32_t c = cp[p];
			could = c < 128 ? first[c] : (c == 0x212A && first['k']) || (c == 0x017F && first['s']);
		}
		r->memo[i] = could && word_find(r, p, w, n_words, &end) ? (uint32_t)end + 2 : 1;
		r->next[i] = r->memo[i] != 1 ? (uint32_t)p : r->next[i + 1];
	}
}

/* one iteration of the loop at p: a word, then the longest .{0,40} that ends at a boundary */
static int iteration(const range *r, size_t p, const piece *w, size_t n_words, size_t *end)
{
	size_t a;
	if (!word_at(r, p, w, n_words, &a)) return 0;
	size_t t = r->b - a < Y_RIGHT ? r->b - a : Y_RIGHT;
	while (t > 0 && !boundary(r, a + t)) t--;
	*end = a + t;
	return 1;
}

/* the whole pattern at start s0: its end, or 0 */
static int match_at(const range *r, size_t s0, const piece *w, size_t n_words, size_t *end)
{
	if (!boundary(r, s0)) return 0;
	const uint8_t *word = r->s->word;
	size_t e = 0;
	int found = 0;
	if (s0 + 3 <= r->b && word[s0] && word[s0 + 1] && word[s0 + 2]) {
		const size_t room = r->b - (s0 + 3);
		for (size_t d = room < Y_LEFT - 3 ? room : Y_LEFT - 3;; d--) {
			if (iteration(r, s0 + 3 + d, w, n_words, &e)) {
				found = 1;
				break;
			}
			if (d == 0) break;
		}
	}
	if (!found && !iteration(r, s0, w, n_words, &e)) return 0;
	size_t next;
	while (iteration(r, e, w, n_words, &next)) e = next;
	*end = e;
	return 1;
}

/* stristr($haystack, $needle) !== false: bytes, ASCII letters folded (as PHP folds them) */
static int contains(const char *h, size_t hn, const char *x, size_t xn)
{
	if (xn == 0) return 1;
	for (size_t i = 0; i + xn <= hn; i++) {
		size_t k = 0;
		while (k < xn && lower((unsigned char)h[i + k]) == lower((unsigned char)x[k])) k++;
		if (k == xn) return 1;
	}
	return 0;
}

static uint64_t piece_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* array_filter(array_unique(explode($sep, $s))): the pieces in order, repeats, "" and "0"
 * dropped (repeats found through a hash of the pieces); *count of them (malloc'd; NULL with
 * *failed set when memory runs out) */
static piece *split_unique(const char *s, size_t n, const char *sep, size_t sep_len, size_t *count, int *failed)
{
	size_t cap = 1;
	for (size_t i = 0; i + sep_len <= n; i++) {
		if (s[i] == sep[0] && memcmp(s + i, sep, sep_len) == 0) {
			cap++;
			i += sep_len - 1;
		}
	}
	size_t slots = 16;
	while (slots < 2 * cap) slots *= 2;
	piece *out = malloc(cap * sizeof(*out));
	size_t *slot = malloc(slots * sizeof(*slot));   /* a kept piece's index + 1, 0: empty */
	*count = 0;
	if (!out || !slot) {
		free(out);
		free(slot);
		*failed = 1;
		return NULL;
	}
	memset(slot, 0, slots * sizeof(*slot));
	size_t from = 0;
	for (size_t i = 0;; i++) {
		const int at_sep = i + sep_len <= n && s[i] == sep[0] && memcmp(s + i, sep, sep_len) == 0;
		if (i < n && !at_sep) continue;
		piece p = {s + from, i - from};
		if (p.n > 0 && !(p.n == 1 && p.s[0] == '0')) {
			size_t h = (size_t)piece_hash(p.s, p.n) & (slots - 1);
			int seen = 0;
			while (slot[h] && !seen) {
				const piece *q = &out[slot[h] - 1];
				seen = q->n == p.n && memcmp(q->s, p.s, p.n) == 0;
				if (!seen) h = (h + 1) & (slots - 1);
			}
			if (!seen) {
				out[*count] = p;
				slot[h] = ++*count;
			}
		}
		if (i >= n) break;
		i += sep_len - 1;
		from = i + 1;
	}
	free(slot);
	return out;
}

/* the bytes of the first `chars` code points of b (mb_substr($s, 0, chars)) */
static size_t prefix_bytes(const char *p, size_t n, size_t chars)
{
	size_t i = 0;
	for (size_t c = 0; i < n; i++) {
		if (((unsigned char)p[i] & 0xC0) != 0x80) {
			if (c == chars) break;
			c++;
		}
	}
	return i;
}

static int printable_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7F) return 0;
	}
	return 1;
}

/* the snippet of the decoded text, into b: 1, or -1 without memory */
static int snippet(const char *text, const subject *sub, const piece *search, size_t n_search, size_t length,
                   text_buf *b)
{
	int failed = 0;
	size_t n_sources = 0;
	piece *sources = split_unique(text, sub->at[sub->n], ".. ", 3, &n_sources, &failed);
	if (failed) return -1;
	const char *ellipsis = "";
	size_t cp_at = 0;   /* the source's first code point */
	for (size_t i = 0; i < n_sources && !b->failed; i++) {
		/* the source's code points: its bytes begin at a code point (".. " is ASCII) */
		const size_t first_byte = (size_t)(sources[i].s - text);
		while (sub->at[cp_at] < first_byte) cp_at++;   /* the sources come in the text's order */
		size_t end = cp_at;
		while (sub->at[end] < first_byte + sources[i].n) end++;
		range r = {sub, cp_at, end, sub->memo, sub->next};
		find_words(&r, search, n_search);
		const size_t chars = end - cp_at;
		if (chars < Y_MIN_SNIPPET) {
			size_t e;
			int any = 0;
			any = r.next[0] <= r.b;
			(void)e;
			if (any && !contains(b->p ? b->p : "", b->n, sources[i].s, sources[i].n)) {
				buf_add(b, ellipsis, strlen(ellipsis));
				buf_add(b, sources[i].s, sources[i].n);
				ellipsis = " ... ";
			}
		} else {
			for (size_t p = r.a; p < r.b;) {
				size_t e;
				/* a match at p has its first word within 20 code points of it */
				const size_t first = r.next[p - r.a];
				if (first > r.b) break;
				if (first > p + Y_LEFT) {
					p = first - Y_LEFT;
					continue;
				}
				if (!match_at(&r, p, search, n_search, &e)) {
					p++;
					continue;
				}
				/* trim($match, ".") */
				size_t x = sub->at[p], z = sub->at[e];
				while (x < z && text[x] == '.') x++;
				while (z > x && text[z - 1] == '.') z--;
				if (!contains(b->p ? b->p : "", b->n, text + x, z - x)) {
					buf_add(b, ellipsis, strlen(ellipsis));
					buf_add(b, text + x, z - x);
					ellipsis = " ... ";
					if (b->chars >= length) break;
				}
				p = e;
			}
		}
		if (b->chars >= length && b->p) {   /* (an empty snippet stays empty) */
			/* mb_substr to `length`, then preg_replace('/[^\s]+$/', "") unless that leaves an
			 * empty() string */
			b->n = prefix_bytes(b->p, b->n, length);
			size_t k = b->n;
			while (k > 0 && b->p[k - 1] != ' ' && b->p[k - 1] != '\t') k--;
			if (k > 0 && k < b->n && !(k == 1 && b->p[0] == '0')) b->n = k;
			b->p[b->n] = 0;
			break;
		}
	}
	free(sources);
	return b->failed ? -1 : 1;
}

int gp_yioop_snippet(const char *text, size_t len, const char *const *words, const size_t *word_lens, size_t n_words,
                     size_t length, const gp_budget *budget, char **out, size_t *out_len, gp_error *err)
{
	*out = NULL;
	*out_len = 0;
	memset(err, 0, sizeof(*err));
	/* the text's code points and positions (17 bytes a byte of it), the pieces, the snippet */
	if (budget && gp_budget_check(budget, 0, (uint64_t)len * 30 + 4096, "a snippet's text", err) != GP_OK) return -1;
	for (size_t k = 0; k < n_words; k++) {
		if (!printable_ascii(words[k], word_lens[k])) return 0;
	}
	subject sub = {NULL, NULL, 0, NULL, NULL, NULL, NULL};
	text_buf b = {NULL, 0, 0, 0, 0};
	text_buf joined = {NULL, 0, 0, 0, 0};
	piece *search = NULL;
	int rc = decode(text, len, &sub);
	if (rc <= 0) goto done;
	if (sub.n < length) {   /* short: the text itself */
		buf_add(&b, text, len);
		rc = b.failed ? -1 : 1;
		goto done;
	}
	if (n_words == 0) {
		/* no words: the first `length` characters, then as many characters as the last space's
		 * byte offset (Yioop hands strrpos's offset to mb_substr) */
		const size_t n = sub.at[length];
		size_t r = n;
		while (r > 0 && text[r - 1] != ' ') r--;
		buf_add(&b, text, r > 1 ? prefix_bytes(text, n, r - 1) : n);
		rc = b.failed ? -1 : 1;
		goto done;
	}
	/* implode(" ", $words), split again */
	for (size_t k = 0; k < n_words; k++) {
		if (k) buf_add(&joined, " ", 1);
		buf_add(&joined, words[k], word_lens[k]);
	}
	int failed = joined.failed;
	size_t n_search = 0;
	if (!failed) search = split_unique(joined.p ? joined.p : "", joined.n, " ", 1, &n_search, &failed);
	if (failed) {
		rc = -1;
	} else if (n_search == 0) {
		rc = 0;   /* words of spaces alone: Yioop's pattern then has an empty alternative */
	} else {
		rc = snippet(text, &sub, search, n_search, length, &b);
	}
done:
	free(sub.block);
	free(joined.p);
	free(search);
	if (rc == 1 && !b.p) {
		buf_add(&b, "", 0);
		if (b.failed) rc = -1;
	}
	if (rc != 1) {
		free(b.p);
		return rc;
	}
	*out = b.p;
	*out_len = b.n;
	return 1;
}
