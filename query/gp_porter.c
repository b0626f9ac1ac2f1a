/* Porter's stemmer (query/gp_porter.h), on a word w[0 .. n). The measure m of a stem counts its
 * vowel-consonant sequences ([C](VC)^m[V]); 'y' is a vowel after a consonant. */
#include <string.h>

#include "gp_porter.h"

typedef struct word {
	char *w;
	size_t n;
} word;

static int consonant(const word *x, size_t i)
{
	switch (x->w[i]) {
	case 'a': case 'e': case 'i': case 'o': case 'u':
		return 0;
	case 'y':
		return i == 0 ? 1 : !consonant(x, i - 1);
	default:
		return 1;
	}
}

/* The measure of w[0 .. k). */
static int measure(const word *x, size_t k)
{
	size_t i = 0;
	int m = 0;
	while (i < k && consonant(x, i)) i++;
	for (;;) {
		while (i < k && !consonant(x, i)) i++;
		if (i >= k) return m;
		while (i < k && consonant(x, i)) i++;
		m++;
		if (i >= k) return m;
	}
}

static int has_vowel(const word *x, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (!consonant(x, i)) return 1;
	}
	return 0;
}

/* w[0 .. k) ends with a double consonant. */
static int double_consonant(const word *x, size_t k)
{
	return k >= 2 && x->w[k - 1] == x->w[k - 2] && consonant(x, k - 1);
}

/* w[0 .. k) ends consonant-vowel-consonant, the last not w, x or y. */
static int cvc(const word *x, size_t k)
{
	if (k < 3 || !consonant(x, k - 1) || consonant(x, k - 2) || !consonant(x, k - 3)) return 0;
	char c = x->w[k - 1];
	return c != 'w' && c != 'x' && c != 'y';
}

static int ends(const word *x, const char *s)
{
	size_t l = strlen(s);
	return x->n >= l && memcmp(x->w + x->n - l, s, l) == 0;
}

/* The word's suffix `from` (which it ends with) replaced by `to`. */
static void set_to(word *x, const char *from, const char *to)
{
	size_t lf = strlen(from), lt = strlen(to);
	memcpy(x->w + x->n - lf, to, lt);
	x->n = x->n - lf + lt;
}

/* Replaces suffix `from` by `to` where the stem before it has a measure above `m`; whether the
 * word ends with `from` (the rule applies, or stops the step, either way). */
static int rule(word *x, const char *from, const char *to, int m)
{
	if (!ends(x, from)) return 0;
	if (measure(x, x->n - strlen(from)) > m) set_to(x, from, to);
	return 1;
}

static void step1ab(word *x)
{
	/* sses -> ss and ies -> i only with a letter before them (FTS5's rule); any other s but ss
	 * dropped */
	if ((ends(x, "sses") && x->n > 4) || (ends(x, "ies") && x->n > 3)) x->n -= 2;
	else if (ends(x, "s") && !ends(x, "ss")) x->n -= 1;
	if (ends(x, "eed")) {
		if (measure(x, x->n - 3) > 0) x->n -= 1;
		return;
	}
	size_t cut = ends(x, "ed") ? 2 : ends(x, "ing") ? 3 : 0;
	if (!cut || !has_vowel(x, x->n - cut)) return;
	x->n -= cut;
	if (ends(x, "at")) set_to(x, "at", "ate");
	else if (ends(x, "bl")) set_to(x, "bl", "ble");
	else if (ends(x, "iz")) set_to(x, "iz", "ize");
	else if (double_consonant(x, x->n)) {
		char c = x->w[x->n - 1];
		if (c != 'l' && c != 's' && c != 'z') x->n--;
	} else if (measure(x, x->n) == 1 && cvc(x, x->n)) {
		x->w[x->n++] = 'e';
	}
}

static void step1c(word *x)
{
	if (ends(x, "y") && has_vowel(x, x->n - 1)) x->w[x->n - 1] = 'i';
}

static void step2(word *x)
{
	static const char *const rules[][2] = {
		{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
		{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
		{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
		{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
		{"logi", "log"},
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rule(x, rules[i][0], rules[i][1], 0)) return;
	}
}

static void step3(word *x)
{
	static const char *const rules[][2] = {
		{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
	};
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (rule(x, rules[i][0], rules[i][1], 0)) return;
	}
}

static void step4(word *x)
{
	static const char *const suffixes[] = {
		"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
		"ate", "iti", "ous", "ive", "ize",
	};
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		const char *s = suffixes[i];
		if (!ends(x, s)) continue;
		size_t k = x->n - strlen(s);
		/* -ion only after s or t */
		if (strcmp(s, "ion") == 0 && !(k > 0 && (x->w[k - 1] == 's' || x->w[k - 1] == 't'))) continue;
		if (measure(x, k) > 1) x->n = k;
		return;
	}
}

static void step5(word *x)
{
	if (ends(x, "e")) {
		int m = measure(x, x->n - 1);
		if (m > 1 || (m == 1 && !cvc(x, x->n - 1))) x->n--;
	}
	if (ends(x, "ll") && measure(x, x->n) > 1) x->n--;
}

size_t gp_porter_stem(const char *token, size_t len, char *out)
{
	memcpy(out, token, len);
	if (len < 3 || len > GP_PORTER_MAX) return len;
	word x = {out, len};
	step1ab(&x);
	if (x.n > 0) step1c(&x);
	step2(&x);
	step3(&x);
	step4(&x);
	step5(&x);
	return x.n;
}
