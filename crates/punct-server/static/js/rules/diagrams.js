// The rules page's diagrams: positions (position texts, as the game writes them) chosen so
// that each shows one rule, with what to look at. Their captions are the rules part's
// `rules.<name>.caption` texts.

/** The diagrams by name, in drawDiagram's terms (rules/diagram.js). */
export const DIAGRAMS = {
  // The empty board: its goal sides and central hexagon.
  goal: { position: "standard w 0 -" },
  // A piece placed beside the central hexagon, and one that may not go where it is drawn.
  place: {
    position: "standard b 1 wEF6:5@1",
    last: "EF6:5",
    ghost: { piece: "EF7:5", colour: "black", bad: ["G7", "H7"] },
    focus: ["D5", "K5", "D8", "K12"],
  },
  // A triangle's PÜNCT slides along a line, over a black piece, to F10.
  move: {
    position: "standard w 2 wTF5:1@1,bTF7:2@1",
    lines: "F5",
    move: "F5-F10:0",
    focus: ["C3", "H4", "C9", "H11"],
  },
  // A triangle jumps: its PÜNCT onto White's straight piece, its minor dots onto Black's.
  jump: {
    position: "standard w 4 wED5:5@1,bED6:5@1,wTE9:0@1,bTK5:0@1",
    lines: "E9",
    move: "E9-E5:3",
    focus: ["B3", "G4", "B9", "G10"],
  },
  // After the jump: the covered cells show White; the two pieces under it are frozen.
  cover: {
    position: "standard b 5 wED5:5@1,bED6:5@1,bTK5:0@1,wTE5:3@2",
    last: "E9-E5:3",
    focus: ["B3", "G4", "B8", "G9"],
  },
  // A straight piece bridging from White's triangle to Black's over the empty G5.
  bridge: {
    position: "standard b 7 wTF5:0@1,bTH5:0@1,wEF5:5@2",
    marks: ["G5"],
    focus: ["D3", "J3", "D6", "J8"],
  },
  // White connects column A to column Q.
  win: {
    position: "standard b 11 wCB5:2@1,wED5:5@1,wEG5:5@1,wEJ5:5@1,wEM6:4@1,wTP9:3@1,bEC10:0@1,bTH13:0@1,bEK14:5@1,bTN10:0@1",
    chain: ["A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "I5", "J5", "K5", "L5", "M6", "N7", "O8", "P9", "P10", "Q10"],
  },
  // The central hexagon at the end of a standard game: the top dots are counted.
  centre: {
    position: "standard w 36 wEG8:5@1,wTI10:0@1,bEK11:0@1,bTJ12:0@1,wTG10:1@1",
    focus: ["G7", "I7", "K9", "K11", "I11", "G9", "J12", "F9"],
  },
};
