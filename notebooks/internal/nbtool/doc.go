// Command nbtool checks crdlab's Go notebooks and their exercises. It reads
// and writes Jupyter notebooks as JSON and uses only the standard library;
// executing them is Jupyter's job (scripts/notebooks.sh runs
// `jupyter nbconvert --execute` with the GoNB kernel between nbtool's
// steps).
//
// An exercise is a pair of cells: a cell tagged "exercise" that the
// student completes (committed as a stub that compiles but is wrong) and,
// next after it, a cell tagged "check" that tests it. The reference
// solution of exercise cell ID in notebook NAME.ipynb is the Go file
// solutions/NAME/ID.go beside the notebook, marked `//go:build ignore` so
// that the go command leaves it alone; everything after its package clause
// replaces the stub.
//
// Beside the solutions, wrong/NAME/ID-MISTAKE.go keeps at least three
// plausible wrong answers to exercise ID (wrong.go), each naming its
// mistake and what the check prints when it catches it.
//
// Usage:
//
//	nbtool lint NB.ipynb...            structure, ids, exercise pairs, solutions,
//	                                   wrong answers, diagrams (diagrams.go)
//	nbtool exercises NB.ipynb          the ids of its exercise cells
//	nbtool wrongs NB.ipynb             its wrong answers, one a line
//	nbtool solve NB.ipynb OUT.ipynb    NB with every stub replaced by its solution
//	nbtool solve -keep ID NB OUT       … every stub but exercise ID's, whose check
//	                                   is followed by each wrong answer and the
//	                                   solution, each with the check again
//	nbtool solve -with ID=FILE NB OUT  … exercise ID answered by FILE
//	nbtool verify -mode stub EXECUTED.ipynb...
//	                                   only check cells failed, each at run time
//	nbtool verify -mode stub -exercise ID EXECUTED.ipynb
//	                                   only exercise ID's check failed, at run time
//	nbtool verify -mode solution EXECUTED.ipynb...
//	                                   no cell failed
//	nbtool publish EXECUTED.ipynb DEST.ipynb
//	                                   EXECUTED without timings or colour codes
//	nbtool grade-prepare REF.ipynb STUDENT.ipynb OUT.ipynb
//	                                   REF with STUDENT's exercise cells (grade.go)
//	nbtool grade-report CLASS REF.ipynb...
//	                                   the table of exercise × student
//
// Proving an exercise: run the notebook solved except for that exercise
// (solve -keep, then verify -exercise), so that its check cannot fail
// because of another exercise's stub; in the same run the check must fail
// on each wrong answer and pass on the solution; then run it fully solved.
//
// Every cell of an executed notebook must have run. Exit status 1 means
// the notebooks did not pass; 2 is a usage error.
//
// Upstream: none; this is crdlab's own tooling (see notebooks/README.md).
// It does what nbconvert's --execute cannot: swap solutions in and judge
// which cells must fail.
package main
