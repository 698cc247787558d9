//===- BankConflict.cpp - roofline-bank-conflict --------------------------===//

#include "CheckSupport.h"

using namespace roofline;

// "an 8-way", "an 11-way", "an 18-way", "a 4-way".
static std::string waysWithArticle(unsigned Ways) {
  std::string N = std::to_string(Ways);
  bool An = N[0] == '8' || N == "11" || N == "18";
  return (An ? "an " : "a ") + N + "-way";
}

// A request recomputed with a fix: "no conflict, 1 wavefront per request"
// or "a 4-way conflict, 4 wavefronts per request".
static std::string bankResult(const BankReport &B) {
  std::string W = std::to_string(B.Wavefronts) +
                  (B.Wavefronts == 1 ? " wavefront" : " wavefronts") +
                  " per request";
  if (B.Ways <= 1)
    return "no conflict, " + W;
  return waysWithArticle(B.Ways) + " conflict, " + W;
}

// "2nd", "3rd", "8th", "21st".
static std::string ordinal(int64_t N) {
  const char *Suffix = "th";
  if (N % 100 < 11 || N % 100 > 13)
    Suffix = N % 10 == 1   ? "st"
             : N % 10 == 2 ? "nd"
             : N % 10 == 3 ? "rd"
                           : "th";
  return std::to_string(N) + Suffix;
}

// The array's extents with the row (innermost) length Row: "[32][33]".
static std::string extents(const SharedLayout &L, uint64_t Row) {
  std::string S;
  for (size_t I = 0; I + 1 < L.Dims.size(); ++I)
    S += "[" + std::to_string(L.Dims[I]) + "]";
  return S + "[" + std::to_string(Row) + "]";
}

// A conflict between rows of a 2-D array: the padding (or failing that the
// swizzle) that separates them, with the request it gives.
static std::string acrossRowsAdvice(const AccessInfo &A,
                                    const BankAdvice &Adv) {
  const SharedLayout &L = Adv.Layout;
  const BankReport &B = *A.Banks;
  std::string Name = "'" + A.Base + "'";
  std::string S = ", each in another row of " + Name;
  uint64_t Row = L.Dims.back() + Adv.PadElements;
  std::string Pad = " each row of " + Name + " to " + std::to_string(Row) +
                    " elements (" + extents(L, Row) + ")";
  if (Adv.PadElements && Adv.Padded.Wavefronts <= B.MinWavefronts)
    return S + "; pad" + Pad + ": " + bankResult(Adv.Padded);
  if (Adv.PadElements)
    S += "; padding" + Pad + " leaves " + bankResult(Adv.Padded) +
         " (no padding that keeps its accesses aligned does better)";
  else
    S += "; no padding of the rows lowers it";
  if (Adv.SwizzleModulo) {
    uint64_t Rows = L.Dims[L.Dims.size() - 2];
    std::string Key = Rows && Rows <= Adv.SwizzleModulo
                          ? std::string("r")
                          : "(r % " + std::to_string(Adv.SwizzleModulo) + ")";
    if (Adv.SwizzleScale > 1)
      Key = "(" + Key + " * " + std::to_string(Adv.SwizzleScale) + ")";
    S += "; swizzling the column with the row instead, element [r][c] at "
         "[r][c ^ " +
         Key + "] in every access of " + Name + ", gives " +
         bankResult(Adv.Swizzled);
    if (Adv.Swizzled.Wavefronts <= B.MinWavefronts)
      return S;
  }
  return S + "; removing it takes another mapping of threads to elements";
}

// A conflict between words of one row (or of a 1-D array): how far apart
// the lanes are there, and the access that would not collide.
static std::string withinRowAdvice(const AccessInfo &A, const BankAdvice &Adv) {
  const SharedLayout &L = Adv.Layout;
  bool Rows = L.rowBytes() != 0;
  std::string Name = "'" + A.Base + "'";
  std::string S;
  if (!Rows) {
    S = " of " + Name +
        (L.Dims.size() == 1 ? std::string(" (a 1-D array)") : std::string());
  } else if (Adv.CollidingInOneRow) {
    S = " in one row of " + Name;
  } else {
    S = "; lanes " + std::to_string(Adv.LaneA) + " and " +
        std::to_string(Adv.LaneB) + " access one row of " + Name;
  }
  int64_t Stride = Adv.LaneStride < 0 ? -Adv.LaneStride : Adv.LaneStride;
  if (Stride && Stride % BankBytes == 0)
    S += ": consecutive lanes access every " + ordinal(Stride / BankBytes) +
         " word of it";
  else
    S += ": lanes " + std::to_string(Adv.LaneA) + " and " +
         std::to_string(Adv.LaneB) + " access words " +
         std::to_string(Adv.OffsetA / BankBytes) + " and " +
         std::to_string(Adv.OffsetB / BankBytes) + " of it, " +
         std::to_string((Adv.OffsetB - Adv.OffsetA) / BankBytes) +
         " words apart";
  if (Rows)
    S += ", so padding the rows cannot separate them";
  bool OneElement = !L.ElementBytes || L.ElementBytes == A.Width;
  std::string Consecutive =
      "have consecutive lanes access consecutive " +
      (OneElement ? std::string("elements")
                  : std::to_string(A.Width) + "-byte pieces") +
      ": " + bankResult(Adv.Consecutive);
  if (!Adv.VectorBytes)
    return S + "; " + Consecutive;
  unsigned N =
      L.ElementBytes ? Adv.VectorBytes / L.ElementBytes : Adv.VectorBytes;
  std::string Unit = L.ElementBytes ? "elements" : "bytes";
  S += "; read each thread's " + std::to_string(N) + " consecutive " + Unit +
       " as one " + std::to_string(Adv.VectorBytes) + "-byte vector access";
  if (Adv.VectorRowElements)
    S += ", with rows of " + std::to_string(Adv.VectorRowElements) +
         " elements (" + extents(L, Adv.VectorRowElements) +
         ") to keep it aligned";
  return S + ": " + bankResult(Adv.Vectorized) + " for " +
         (N == 2 ? "both " : "all " + std::to_string(N) + " ") + Unit +
         "; or " + Consecutive;
}

// The cause of A's bank conflict and its fix, for the note: padding only
// where the colliding words are in different rows of a 2-D array, as
// recomputing the request with it confirms.
static std::string bankAdvice(const AccessInfo &A, const BankAdvice &Adv) {
  if (Adv.acrossRows())
    return acrossRowsAdvice(A, Adv);
  return withinRowAdvice(A, Adv);
}

// roofline-bank-conflict: a shared request with at least --min-conflict-ways
// ways, with the cause and the fix that the note gives.
void roofline::checkBankConflict(const AccessInfo &A,
                                 const FindingOptions &Opts,
                                 std::vector<Finding> &Out) {
  if (!A.Banks || A.Banks->Ways < Opts.MinConflictWays)
    return;
  const BankReport &B = *A.Banks;
  Finding F = at(CheckId::BankConflict, A);
  // The machine code's request: the merged access, if ptxas merges it.
  std::string Merged =
      A.MachineWidth ? " (one " + std::to_string(A.MachineWidth) +
                           "-byte access with its neighbours in the machine "
                           "code)"
                     : "";
  F.Message = what(A) + Merged + " has " + waysWithArticle(B.Ways) +
              " bank conflict: " + std::to_string(B.Wavefronts) +
              " wavefronts per request where " +
              std::to_string(B.MinWavefronts) + " would do" + assumptions(A);
  FindingNote N;
  N.Loc = A.Loc;
  std::string Lanes;
  for (size_t I = 0; I < B.CollidingLanes.size(); ++I) {
    if (I == 4 && B.CollidingLanes.size() > 5) {
      Lanes += ", ..., " + std::to_string(B.CollidingLanes.back());
      break;
    }
    Lanes += (I ? ", " : "") + std::to_string(B.CollidingLanes[I]);
  }
  N.Message = "lanes " + Lanes + (A.IsStore ? " write" : " read") +
              " different words of bank " + std::to_string(B.Bank);
  N.Message += A.BankFix ? bankAdvice(A, *A.BankFix)
                         : "; have the lanes of a warp access words in "
                           "different banks";
  F.Notes.push_back(N);
  Out.push_back(F);
}
