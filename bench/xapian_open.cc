// Xapian's row of bench/open_first.sh: a database built from a text file (one doc a line, as
// bench/xapian_bench builds it), or opened and asked its first query, timed apart.
//   xapian_open build TEXT_FILE DB_DIR
//   xapian_open first DB_DIR TERM...   prints "open_ms first_ms matches" (the AND of the terms,
//                                      every match in docid order, BoolWeight)
#include <xapian.h>

#include "xapian_text.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static double ms_since(std::chrono::steady_clock::time_point t)
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

int main(int argc, char **argv)
{
	if (argc >= 4 && std::strcmp(argv[1], "build") == 0) {
		Xapian::WritableDatabase db(argv[3], Xapian::DB_CREATE_OR_OVERWRITE);
		xapian_index_text(db, argv[2]);
		return 0;
	}
	if (argc >= 4 && std::strcmp(argv[1], "first") == 0) {
		auto t0 = std::chrono::steady_clock::now();
		Xapian::Database db(argv[2]);
		double open = ms_since(t0);
		std::vector<std::string> terms(argv + 3, argv + argc);
		auto t1 = std::chrono::steady_clock::now();
		Xapian::Enquire enquire(db);
		enquire.set_weighting_scheme(Xapian::BoolWeight());
		enquire.set_docid_order(Xapian::Enquire::ASCENDING);
		enquire.set_query(Xapian::Query(Xapian::Query::OP_AND, terms.begin(), terms.end()));
		Xapian::MSet m = enquire.get_mset(0, db.get_doccount());
		double first = ms_since(t1);
		std::printf("%.3f %.3f %u\n", open, first, (unsigned)m.size());
		return 0;
	}
	std::cerr << "usage: xapian_open build TEXT_FILE DB_DIR | first DB_DIR TERM...\n";
	return 2;
}
