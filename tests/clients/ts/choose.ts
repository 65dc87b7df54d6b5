// The scripts' way to play a turn.
import type { Schemas } from "./api";

// Look first, raise with three of a kind or better, otherwise stay in as cheaply as allowed.
export function choose(view: Schemas["MatchView"]): Schemas["ActionName"] {
  const legal = new Set(view.legal_actions);
  const strong: (Schemas["HandCategory"] | null)[] = [
    "three_of_a_kind",
    "full_house",
    "four_of_a_kind",
  ];
  if (legal.has("look")) return "look";
  if (legal.has("raise") && strong.includes(view.your_category)) return "raise";
  for (const action of ["hold", "call"] as const) {
    if (legal.has(action)) return action;
  }
  return "fold";
}
