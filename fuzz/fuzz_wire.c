/* The wire's readers (net/gp_wire.c): any bytes as a frame, its header read under a cap, then
 * the payload as the type says. What reads must build back to the same bytes (each message has
 * one encoding), and nothing is read, allocated or looped over past what the input holds. */
#include "fuzz_common.h"
#include "../net/gp_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < GP_WIRE_HEADER) return 0;
	gp_error err = {0};
	gp_wire_header h;
	if (gp_wire_header_read(data, 1u << 20, &h, &err) != GP_OK) return 0;
	const uint8_t *payload = data + GP_WIRE_HEADER;
	size_t len = size - GP_WIRE_HEADER;
	if (h.length < len) len = h.length;   /* a frame is its header's length; the rest is the next one's */
	gp_wire_buf b = {0};
	if (h.type == GP_WIRE_QUERY) {
		gp_wire_query q;
		if (gp_wire_get_query(payload, len, &q, &err) == GP_OK) {
			FUZZ_CHECK(gp_wire_put_query(&b, h.id, &q, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
			gp_wire_query_free(&q);
		} else {
			FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len);
		}
	} else if (h.type == GP_WIRE_ANSWERS) {
		gp_answers a;
		int ranked, count_only;
		if (gp_wire_get_answers(payload, len, &a, &ranked, &count_only, &err) == GP_OK) {
			FUZZ_CHECK(gp_wire_put_answers(&b, h.id, &a, ranked, count_only, &err) == GP_OK);
			FUZZ_CHECK(b.len == GP_WIRE_HEADER + len && memcmp(b.p + GP_WIRE_HEADER, payload, len) == 0);
			gp_answers_free(&a);
		} else {
			FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + len);
		}
	} else if (h.type == GP_WIRE_ERROR) {
		int status;
		char msg[GP_WIRE_MAX_MESSAGE + 1];
		if (gp_wire_get_error(payload, len, &status, msg, sizeof(msg), &err) == GP_OK) {
			FUZZ_CHECK(status >= GP_EVALUE && status <= GP_EFORMAT && strlen(msg) <= GP_WIRE_MAX_MESSAGE);
		}
	} else {
		/* the others: a u32 then a string, as HELLO and OPEN are */
		gp_wire_reader r;
		gp_wire_reader_init(&r, payload, len);
		uint32_t n;
		gp_wire_get_u32(&r);
		const uint8_t *s = gp_wire_get_bytes(&r, GP_WIRE_MAX_PATH, &n);
		FUZZ_CHECK(s == NULL || (s >= payload && s + n <= payload + len));
		(void)gp_wire_reader_done(&r, &err);
	}
	gp_wire_buf_free(&b);
	return 0;
}
