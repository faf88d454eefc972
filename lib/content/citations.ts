/**
 * The papers behind the metrics, for the "Source" section of the metric pages
 * (`app/metrics/`): full citations, each with what the paper is for the metric, and the short
 * references ("Luo (2005)") of the metric list.
 */
import type { LeaderboardMetric } from "../validations/metrics";

/** A paper, for the "Source" section. */
export interface Citation {
  /** All authors, as in the paper. */
  authors: string;
  year: number;
  title: string;
  /** Where it appeared, e.g. "Proceedings of …". */
  venue: string;
  pages?: string;
  address?: string;
  /** A stable address of the paper (ACL Anthology where it has one). */
  url?: string;
  /** What this paper is for the metric, e.g. "defines the metric". */
  role: string;
}

/** The citation as one line of text: `Authors. Year. Title. Venue, pages P, Address.` */
export function formatCitation(c: Citation): string {
  const tail = [c.venue, c.pages ? `pages ${c.pages}` : null, c.address ?? null].filter(Boolean).join(", ");
  return `${c.authors}. ${c.year}. ${c.title}. ${tail}.`;
}

/** A short reference: "Luo (2005)", "Moosavi & Strube (2016)", "Vilain et al. (1995)". */
export function shortCitation(c: Pick<Citation, "authors" | "year">): string {
  const surnames = c.authors.split(/, | and /).map((name) => name.trim().split(" ").at(-1) ?? name);
  if (surnames.length === 1) return `${surnames[0]} (${c.year})`;
  if (surnames.length === 2) return `${surnames[0]} & ${surnames[1]} (${c.year})`;
  return `${surnames[0]} et al. (${c.year})`;
}

const VILAIN_1995_CITE: Omit<Citation, "role"> = {
  authors: "Marc Vilain, John Burger, John Aberdeen, Dennis Connolly and Lynette Hirschman",
  year: 1995,
  title: "A Model-Theoretic Coreference Scoring Scheme",
  venue: "In Sixth Message Understanding Conference (MUC-6): Proceedings of a Conference Held in Columbia, Maryland, November 6–8, 1995",
  pages: "45–52",
  url: "https://aclanthology.org/M95-1005/",
};
const BAGGA_BALDWIN_1998_CITE: Omit<Citation, "role"> = {
  authors: "Amit Bagga and Breck Baldwin",
  year: 1998,
  title: "Algorithms for Scoring Coreference Chains",
  venue: "In The First International Conference on Language Resources and Evaluation Workshop on Linguistic Coreference",
  pages: "563–566",
  address: "Granada, Spain",
};
const CAMP_1998_CITE: Omit<Citation, "role"> = {
  authors: "Breck Baldwin, Tom Morton, Amit Bagga, Jason Baldridge, Raman Chandraseker, Alexis Dimitriadis, Kieran Snyder and Magdalena Wolska",
  year: 1998,
  title: "Description of the UPenn CAMP System as Used for Coreference",
  venue: "In Seventh Message Understanding Conference (MUC-7): Proceedings of a Conference Held in Fairfax, Virginia, April 29 – May 1, 1998",
  url: "https://aclanthology.org/M98-1022/",
};
const LUO_2005_CITE: Omit<Citation, "role"> = {
  authors: "Xiaoqiang Luo",
  year: 2005,
  title: "On Coreference Resolution Performance Metrics",
  venue: "In Proceedings of Human Language Technology Conference and Conference on Empirical Methods in Natural Language Processing (HLT/EMNLP)",
  pages: "25–32",
  address: "Vancouver, British Columbia, Canada",
  url: "https://aclanthology.org/H05-1004/",
};
const MOOSAVI_STRUBE_2016_CITE: Omit<Citation, "role"> = {
  authors: "Nafise Sadat Moosavi and Michael Strube",
  year: 2016,
  title: "Which Coreference Evaluation Metric Do You Trust? A Proposal for a Link-based Entity Aware Metric",
  venue: "In Proceedings of the 54th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)",
  pages: "632–642",
  address: "Berlin, Germany",
  url: "https://aclanthology.org/P16-1060/",
};
const RECASENS_HOVY_2011_CITE: Omit<Citation, "role"> = {
  authors: "Marta Recasens and Eduard Hovy",
  year: 2011,
  title: "BLANC: Implementing the Rand index for coreference evaluation",
  venue: "Natural Language Engineering 17(4)",
  pages: "485–510",
};
const LUO_2014_CITE: Omit<Citation, "role"> = {
  authors: "Xiaoqiang Luo, Sameer Pradhan, Marta Recasens and Eduard Hovy",
  year: 2014,
  title: "An Extension of BLANC to System Mentions",
  venue: "In Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics (Volume 2: Short Papers)",
  pages: "24–29",
  address: "Baltimore, Maryland",
  url: "https://aclanthology.org/P14-2005/",
};
const PRADHAN_2014_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Xiaoqiang Luo, Marta Recasens, Eduard Hovy, Vincent Ng and Michael Strube",
  year: 2014,
  title: "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
  venue: "In Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics (Volume 2: Short Papers)",
  pages: "30–35",
  address: "Baltimore, Maryland",
  url: "https://aclanthology.org/P14-2006/",
};
const PRADHAN_2011_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Lance Ramshaw, Mitchell Marcus, Martha Palmer, Ralph Weischedel and Nianwen Xue",
  year: 2011,
  title: "CoNLL-2011 Shared Task: Modeling Unrestricted Coreference in OntoNotes",
  venue: "In Proceedings of the Fifteenth Conference on Computational Natural Language Learning: Shared Task",
  pages: "1–27",
  address: "Portland, Oregon, USA",
  url: "https://aclanthology.org/W11-1901/",
};
const PRADHAN_2012_CITE: Omit<Citation, "role"> = {
  authors: "Sameer Pradhan, Alessandro Moschitti, Nianwen Xue, Olga Uryupina and Yuchen Zhang",
  year: 2012,
  title: "CoNLL-2012 Shared Task: Modeling Multilingual Unrestricted Coreference in OntoNotes",
  venue: "In Joint Conference on EMNLP and CoNLL – Shared Task",
  pages: "1–40",
  address: "Jeju Island, Korea",
  url: "https://aclanthology.org/W12-4501/",
};
const AGARWAL_1995_CITE: Omit<Citation, "role"> = {
  authors: "Rajeev Agarwal",
  year: 1995,
  title: "Evaluation of Semantic Clusters",
  venue: "In Proceedings of the 33rd Annual Meeting of the Association for Computational Linguistics",
  pages: "284–286",
  address: "Cambridge, Massachusetts, USA",
  url: "https://aclanthology.org/P95-1038/",
};

const ZABOKRTSKY_2022_CITE: Omit<Citation, "role"> = {
  authors: "Zdeněk Žabokrtský, Miloslav Konopík, Anna Nedoluzhko, Michal Novák, Maciej Ogrodniczuk, Martin Popel, Ondřej Pražák, Jakub Sido, Daniel Zeman and Yilun Zhu",
  year: 2022,
  title: "Findings of the Shared Task on Multilingual Coreference Resolution",
  venue: "In Proceedings of the CRAC 2022 Shared Task on Multilingual Coreference Resolution",
  pages: "1–17",
  address: "Gyeongju, Republic of Korea",
  url: "https://aclanthology.org/2022.crac-mcr.1/",
};

const cite = (c: Omit<Citation, "role">, role: string): Citation => ({ ...c, role });
const REFERENCE_IMPLEMENTATION = cite(PRADHAN_2014_CITE, "the reference scorer whose conventions Corefboard follows");

/** Each metric's papers, the defining paper first. */
export const METRIC_CITATIONS: Record<LeaderboardMetric, Citation[]> = {
  mentions: [cite(PRADHAN_2014_CITE, "the reference implementation, which reports mention identification alongside each metric")],
  muc: [cite(VILAIN_1995_CITE, "defines the metric; the worked example is its first one"), REFERENCE_IMPLEMENTATION],
  bcub: [
    cite(BAGGA_BALDWIN_1998_CITE, "defines the metric"),
    cite(CAMP_1998_CITE, "gives the algorithm and the worked example (Figures 1, 2, 4 and 6) used here"),
    REFERENCE_IMPLEMENTATION,
  ],
  ceafm: [cite(LUO_2005_CITE, "defines the metric (φ3)"), REFERENCE_IMPLEMENTATION],
  ceafe: [cite(LUO_2005_CITE, "defines the metric (φ4)"), REFERENCE_IMPLEMENTATION],
  lea: [cite(MOOSAVI_STRUBE_2016_CITE, "defines the metric"), cite(PRADHAN_2014_CITE, "the reference scorer, whose LEA branch Corefboard follows")],
  blanc: [cite(RECASENS_HOVY_2011_CITE, "defines the metric"), cite(LUO_2014_CITE, "extends it to system mentions, as computed here"), REFERENCE_IMPLEMENTATION],
  conll: [cite(PRADHAN_2011_CITE, "introduces the score (CoNLL-2011 shared task)"), cite(PRADHAN_2012_CITE, "the CoNLL-2012 shared task, which uses it too"), REFERENCE_IMPLEMENTATION],
  mcf: [cite(AGARWAL_1995_CITE, "defines the mapping, the 0.20 threshold and the single contingency table")],
  mor: [cite(ZABOKRTSKY_2022_CITE, "introduces the metric for the CRAC 2022 shared task; the CorefUD scorer computes it")],
  zero: [cite(ZABOKRTSKY_2022_CITE, "introduces the anaphor-decomposable score for zeros for the CRAC 2022 shared task; the CorefUD scorer computes it")],
};
