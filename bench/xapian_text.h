// What bench/xapian_bench and bench/xapian_open share: a database of a text file, one doc a line
// (docid = line number), each token a term at its position.
#ifndef XAPIAN_TEXT_H
#define XAPIAN_TEXT_H

#include <xapian.h>

#include <fstream>
#include <sstream>
#include <string>

static Xapian::docid xapian_index_text(Xapian::WritableDatabase &db, const char *path)
{
	std::ifstream text(path);
	std::string line;
	Xapian::docid id = 0;
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
	return id;
}

#endif
