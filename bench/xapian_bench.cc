// Xapian's row of bench/index_bench.php: the same documents (one line of tokens each, doc =
// line number) indexed with positions, then the same queries (lines "and t1 t2 ..." or
// "phrase t1 t2 ..."), every match asked for in docid order with BoolWeight (no ranking), one
// query at a time.
//   xapian_bench TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_OP]
// Prints per operator: "xapian OP queries qps p50_ms p99_ms matches doc_sum" (matches and the sum
// of the matching docs let the caller check that Xapian found what gpupost found).
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
	if (argc < 4) {
		std::cerr << "usage: xapian_bench TEXT_FILE QUERY_FILE DB_DIR [SECONDS_PER_OP]\n";
		return 2;
	}
	double budget = argc > 4 ? std::atof(argv[4]) : 30.0;
	Xapian::WritableDatabase db(argv[3], Xapian::DB_CREATE_OR_OVERWRITE);
	std::ifstream text(argv[1]);
	std::string line;
	Xapian::docid id = 0;
	auto t0 = std::chrono::steady_clock::now();
	db.begin_transaction(false);
	while (std::getline(text, line)) {
		Xapian::Document doc;
		std::istringstream words(line);
		std::string w;
		Xapian::termpos pos = 0;
		while (words >> w) doc.add_posting(w, ++pos);
		db.replace_document(++id, doc);
	}
	db.commit_transaction();
	double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	std::fprintf(stderr, "xapian: %u docs indexed in %.1f s\n", (unsigned)id, build);

	std::ifstream qf(argv[2]);
	std::vector<std::pair<std::string, std::vector<std::string>>> queries;
	while (std::getline(qf, line)) {
		std::istringstream words(line);
		std::string op, w;
		words >> op;
		std::vector<std::string> terms;
		while (words >> w) terms.push_back(w);
		if (!terms.empty()) queries.emplace_back(op, terms);
	}
	Xapian::Enquire enquire(db);
	enquire.set_weighting_scheme(Xapian::BoolWeight());
	enquire.set_docid_order(Xapian::Enquire::ASCENDING);
	for (const char *op : {"and", "phrase"}) {
		std::vector<double> lat;
		unsigned long long matches = 0, sum = 0;
		auto start = std::chrono::steady_clock::now();
		for (const auto &q : queries) {
			if (q.first != op) continue;
			auto a = std::chrono::steady_clock::now();
			Xapian::Query query = std::string(op) == "and"
				? Xapian::Query(Xapian::Query::OP_AND, q.second.begin(), q.second.end())
				: Xapian::Query(Xapian::Query::OP_PHRASE, q.second.begin(), q.second.end(), (Xapian::termcount)q.second.size());
			enquire.set_query(query);
			Xapian::MSet m = enquire.get_mset(0, db.get_doccount());
			for (Xapian::MSetIterator it = m.begin(); it != m.end(); ++it) sum += *it - 1;
			matches += m.size();
			lat.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
			if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > budget) break;
		}
		if (lat.empty()) continue;
		double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		std::sort(lat.begin(), lat.end());
		std::printf("xapian %s %zu %.1f %.4f %.4f %llu %llu\n", op, lat.size(), lat.size() / total,
		            1e3 * lat[lat.size() / 2], 1e3 * lat[std::min(lat.size() - 1, lat.size() * 99 / 100)],
		            matches, sum);
	}
	return 0;
}
