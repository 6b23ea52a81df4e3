//! The pictures as a viewer sees them: PNGs and GIFs decoded again, their sizes, frame
//! counts and the colours of known cells. The pictures are also written to
//! target/pictures for people to look at.

use std::path::PathBuf;

use punct_core::{Cell, Colour, Game, Move, Position, Variant};
use punct_picture::palette::{self, Rgba};
use punct_picture::{Animation, Options, PictureError, Scene};

/// A decoded PNG: width, height and RGBA pixels.
struct Decoded {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Decoded {
    fn at(&self, (x, y): (f32, f32)) -> [u8; 4] {
        let i = (y.round() as usize * self.width as usize + x.round() as usize) * 4;
        self.rgba[i..i + 4].try_into().unwrap()
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "opaque: RGB");
    buf.truncate(info.buffer_size());
    let buf: Vec<u8> = buf
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    Decoded {
        width: info.width,
        height: info.height,
        rgba: buf,
    }
}

/// Keeps a picture for people to look at.
fn save(name: &str, bytes: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/pictures");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

fn close(a: [u8; 4], b: Rgba, what: &str) {
    let near = a.iter().zip(b.0).all(|(x, y)| x.abs_diff(y) <= 6);
    assert!(near, "{what}: {a:?} is not {:?}", b.0);
}

/// Pixels per unit of the web board (30 units between neighbouring cells).
fn unit(scene: &Scene) -> f32 {
    let (a, b) = (scene.centre_of(cell("E4")), scene.centre_of(cell("E3")));
    (a.0 - b.0).hypot(a.1 - b.1) / 30.0
}

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap()
}

fn after(start: &str, moves: &[&str]) -> (Position, Option<Move>) {
    let mut pos = Position::from_text(start).unwrap();
    let mut last = None;
    for m in moves {
        let mv = Move::parse(m).unwrap();
        last = Some(pos.play(mv).map(|_| mv).unwrap());
    }
    (pos, last)
}

#[test]
fn a_position_is_a_link_preview_sized_png() {
    let (pos, last) = after("standard w 0 -", &["TE4:0"]);
    let png = punct_picture::png(&pos, last, &Options::default()).unwrap();
    save("te4.png", &png);
    let picture = decode(&png);
    assert_eq!((picture.width, picture.height), (1200, 630));
    assert_eq!(picture.rgba.len(), 1200 * 630 * 4);
    close(picture.at((1.0, 1.0)), palette::BACKGROUND, "the corner");
}

#[test]
fn cells_show_the_dots_on_them() {
    // TE4:0 covers E4 (its PÜNCT), E3 and D3; bTK5:0 covers K5, K4 and J4.
    let (pos, last) = after("standard w 0 -", &["TE4:0", "TK5:0"]);
    let options = Options::default();
    let scene = Scene::new(&options).unwrap();
    let picture = decode(&punct_picture::png(&pos, last, &options).unwrap());
    let at = |name| picture.at(scene.centre_of(cell(name)));
    let [white, black] = &palette::SIDES;
    close(at("D3"), white.dot, "white's minor dot on D3");
    close(at("E3"), white.dot, "white's minor dot on E3");
    close(at("K4"), black.dot, "black's minor dot on K4");
    close(at("H12"), palette::CELL, "the empty cell H12");
    close(at("I9"), palette::CENTRE, "the empty central cell I9");
    // The PÜNCT: a larger dot of its own colour round an eye of the tile's.
    let (x, y) = scene.centre_of(cell("E4"));
    close(picture.at((x, y)), white.tile, "the eye of white's PÜNCT");
    close(
        picture.at((x + 6.0 * unit(&scene), y)),
        white.punct,
        "white's PÜNCT",
    );
}

#[test]
fn flipping_turns_the_board_half_round() {
    let (pos, last) = after("standard w 0 -", &["TE4:0"]);
    let options = Options {
        flipped: true,
        ..Options::default()
    };
    let (plain, flipped) = (
        Scene::new(&Options::default()).unwrap(),
        Scene::new(&options).unwrap(),
    );
    let (a, b) = (plain.centre_of(cell("D3")), flipped.centre_of(cell("D3")));
    assert!(
        a.1 > 315.0 && b.1 < 315.0,
        "D3 is low on the board, high when flipped: {a:?} {b:?}"
    );
    let picture = decode(&punct_picture::png(&pos, last, &options).unwrap());
    close(
        picture.at(b),
        palette::SIDES[0].dot,
        "white's dot on D3, flipped",
    );
}

#[test]
fn a_raised_piece_is_drawn_up_and_to_the_left() {
    let (pos, _) = after("standard b 5 wTE4:0@1,bTK5:0@1,bEM12:3@1,wTE4:0@2", &[]);
    assert_eq!(pos.height(cell("E4")), 2);
    let options = Options::default();
    let scene = Scene::new(&options).unwrap();
    let picture = decode(&punct_picture::png(&pos, None, &options).unwrap());
    let (x, y) = scene.centre_of(cell("E3"));
    // The raised piece's minor dot sits up and to the left of its cell's centre.
    let off = 30.0 / 3f32.sqrt() * 0.22 * unit(&scene);
    close(
        picture.at((x - off, y - off)),
        palette::SIDES[0].dot,
        "the raised dot on E3",
    );
}

#[test]
fn sizes_out_of_bounds_are_refused() {
    let pos = Position::new(Variant::Standard);
    for (width, height) in [(0, 630), (1200, 0), (5000, 630), (1200, 100_000)] {
        let err = punct_picture::png(
            &pos,
            None,
            &Options {
                width,
                height,
                flipped: false,
            },
        )
        .unwrap_err();
        assert_eq!(err, PictureError::Size { width, height });
        assert!(
            err.to_string().contains(&format!("{width}×{height}")),
            "{err}"
        );
    }
    let small = punct_picture::png(
        &pos,
        None,
        &Options {
            width: 16,
            height: 16,
            flipped: false,
        },
    )
    .unwrap();
    assert_eq!(decode(&small).width, 16);
}

fn sample_game(plies: usize) -> Game {
    let mut game = Game::new(Variant::Standard);
    let mut rng = 7u64;
    while game.moves().len() < plies && game.outcome().is_none() {
        let moves = game.position().legal_moves();
        // A fixed sequence of choices (xorshift), so the game is the same every run.
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        game.play(moves[(rng % moves.len() as u64) as usize])
            .unwrap();
    }
    game
}

fn gif_frames(bytes: &[u8]) -> (u16, u16, Vec<u16>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).unwrap();
    let (w, h) = (decoder.width(), decoder.height());
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
    }
    (w, h, delays)
}

#[test]
fn a_game_animates_one_frame_per_move_and_the_start() {
    let game = sample_game(12);
    assert_eq!(game.moves().len(), 12);
    let animation = Animation::default();
    let bytes = punct_picture::gif(&game, &animation).unwrap();
    save("game.gif", &bytes);
    let (w, h, delays) = gif_frames(&bytes);
    assert_eq!(
        (u32::from(w), u32::from(h)),
        (animation.options.width, animation.options.height)
    );
    assert_eq!(delays.len(), 13);
    assert!(delays[..12].iter().all(|&d| d == animation.delay));
    assert_eq!(
        delays[12], animation.last_delay,
        "a pause on the last frame"
    );
}

#[test]
fn a_long_game_keeps_its_last_frames() {
    let game = sample_game(20);
    let animation = Animation {
        max_frames: 5,
        ..Animation::default()
    };
    let (_, _, delays) = gif_frames(&punct_picture::gif(&game, &animation).unwrap());
    assert_eq!(delays.len(), 5);
    let frames = punct_picture::frames(&game, 5);
    assert_eq!(frames.last().unwrap().0, *game.position());
    assert_eq!(
        frames[0].1,
        Some(game.moves()[15]),
        "the first frame marks the move that led to it"
    );
}

#[test]
fn a_game_without_moves_is_one_frame() {
    let game = Game::new(Variant::Basic);
    let (_, _, delays) = gif_frames(&punct_picture::gif(&game, &Animation::default()).unwrap());
    assert_eq!(delays.len(), 1);
    assert_eq!(punct_picture::frames(&game, 300)[0].1, None);
}

#[test]
fn the_reserves_show_the_pieces_in_hand() {
    let options = Options::default();
    let scene = Scene::new(&options).unwrap();
    let picture = |pos: &Position| decode(&punct_picture::png(pos, None, &options).unwrap());
    let middle = scene.centre_of(cell("I9")).0 as usize;
    // Pixels of a tile's colour left of the board (White's reserve) and right of it (Black's).
    let tiles = |d: &Decoded, colour: Colour| {
        let tile = palette::SIDES[colour.index()].tile.0;
        let count = |xs: std::ops::Range<usize>| {
            (0..d.height as usize)
                .flat_map(|y| xs.clone().map(move |x| (x, y)))
                .filter(|&(x, y)| d.at((x as f32, y as f32)) == tile)
                .count()
        };
        (
            count(0..middle - 320),
            count(middle + 320..d.width as usize),
        )
    };
    let start = picture(&Position::new(Variant::Standard));
    let (white_left, white_right) = tiles(&start, Colour::White);
    let (black_left, black_right) = tiles(&start, Colour::Black);
    assert!(
        white_left > 1000 && white_right == 0,
        "{white_left} {white_right}"
    );
    assert!(
        black_right > 1000 && black_left == 0,
        "{black_left} {black_right}"
    );
    // A piece placed leaves its reserve.
    let (pos, _) = after("standard w 0 -", &["EE4:0"]);
    let (fewer, _) = tiles(&picture(&pos), Colour::White);
    assert!(fewer < white_left, "{fewer} {white_left}");
}

/// The GIF's frames laid one over the other, as a viewer shows them: RGBA after each frame.
fn composite(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).unwrap();
    let width = usize::from(decoder.width());
    let mut screen = vec![0u8; width * usize::from(decoder.height()) * 4];
    let mut shown = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let (left, top, w) = (
            usize::from(frame.left),
            usize::from(frame.top),
            usize::from(frame.width),
        );
        for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
            if px[3] != 0 {
                let at = ((top + i / w) * width + left + i % w) * 4;
                screen[at..at + 4].copy_from_slice(px);
            }
        }
        shown.push(screen.clone());
    }
    shown
}

#[test]
fn each_frame_shows_its_position() {
    let game = sample_game(8);
    let animation = Animation::default();
    let shown = composite(&punct_picture::gif(&game, &animation).unwrap());
    for (n, (pos, last)) in punct_picture::frames(&game, 300).iter().enumerate() {
        let png = decode(&punct_picture::png(pos, *last, &animation.options).unwrap());
        // The palette has 255 colours: a few blended edge pixels may miss theirs, but not
        // the hundreds a piece covers.
        let off = png
            .rgba
            .chunks_exact(4)
            .zip(shown[n].chunks_exact(4))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 48))
            .count();
        assert!(off < 50, "frame {n} has {off} pixels off");
    }
    assert_eq!(shown.len(), 9);
}

#[test]
fn the_last_move_is_highlighted() {
    let (pos, last) = after("standard w 0 -", &["TE4:0"]);
    let options = Options::default();
    let scene = Scene::new(&options).unwrap();
    let marked = decode(&punct_picture::png(&pos, last, &options).unwrap());
    let plain = decode(&punct_picture::png(&pos, None, &options).unwrap());
    // The mark fills the piece's three cells under it: it shows round the tile, and only
    // there, in the mark's colour over the cell's.
    let [a, b] = [palette::CELL.0, palette::LAST.0];
    let alpha = f32::from(b[3]) / 255.0;
    let blend: [u8; 4] = std::array::from_fn(|i| {
        if i == 3 {
            255
        } else {
            (f32::from(a[i]) * (1.0 - alpha) + f32::from(b[i]) * alpha).round() as u8
        }
    });
    let cells = ["E4", "E3", "D3"].map(|n| scene.centre_of(cell(n)));
    let (mut changed, mut in_colour) = (0, 0);
    for y in 0..marked.height {
        for x in 0..marked.width {
            let at = (x as f32, y as f32);
            let (m, p) = (marked.at(at), plain.at(at));
            if m == p {
                continue;
            }
            changed += 1;
            let near = cells
                .iter()
                .any(|c| (c.0 - at.0).hypot(c.1 - at.1) < 17.4 * unit(&scene));
            assert!(near, "({x}, {y}) changed outside the move's cells");
            in_colour += usize::from(m.iter().zip(blend).all(|(u, v)| u.abs_diff(v) <= 6));
        }
    }
    assert!(
        changed > 50 && in_colour > 20,
        "{changed} pixels marked, {in_colour} in the mark's colour"
    );
}

/// Pixels darker than the boards' backgrounds (text) in the rectangle `[x0, x1) × [y0, y1)`.
fn ink(d: &Decoded, xs: std::ops::Range<usize>, ys: std::ops::Range<usize>) -> usize {
    ys.flat_map(|y| xs.clone().map(move |x| (x, y)))
        .filter(|&(x, y)| d.at((x as f32, y as f32))[..3].iter().all(|&c| c < 120))
        .count()
}

#[test]
fn a_shared_game_names_its_players_its_result_and_the_site() {
    use punct_core::{Outcome, Termination};
    let options = Options::default();
    let (pos, last) = after("standard w 0 -", &["TE4:0", "TK5:0"]);
    let caption = |names: [&str; 2], outcome| punct_picture::Caption {
        names: names.map(str::to_owned),
        outcome,
        site: "PÜNCT".into(),
    };
    let draw = |names, outcome, site: &str| {
        let caption = punct_picture::Caption {
            site: site.into(),
            ..caption(names, outcome)
        };
        punct_picture::captioned_png(&pos, last, &options, &caption).unwrap()
    };
    let playing = draw(["Ștefan", "Żółć"], None, "PÜNCT");
    save("captioned-playing.png", &playing);
    let (playing, unnamed) = (decode(&playing), decode(&draw(["", ""], None, "")));
    // The reserves' boxes are 13 to 317 and 883 to 1187 pixels across; the names are in the
    // top eighth of them, the site's name at the foot of White's.
    let (white, black) = (13..317, 883..1187);
    let (head, foot) = (13..90, 570..617);
    let more =
        |a: &Decoded, b: &Decoded, xs: &std::ops::Range<usize>, ys: &std::ops::Range<usize>| {
            ink(a, xs.clone(), ys.clone()) as i64 - ink(b, xs.clone(), ys.clone()) as i64
        };
    assert!(
        more(&playing, &unnamed, &white, &head) > 300,
        "White's name"
    );
    assert!(
        more(&playing, &unnamed, &black, &head) > 300,
        "Black's name"
    );
    assert!(
        more(&playing, &unnamed, &white, &foot) > 80,
        "the site's name"
    );
    // Once the game is over, each side's score at the end of its name's line; a longer name
    // is cut to fit before it.
    let won = Outcome {
        winner: Some(Colour::Black),
        termination: Termination::Connection,
    };
    let long = "Bartholomew Featherstonehaugh-Cholmondeley";
    let over = draw([long, "Bo"], Some(won), "PÜNCT");
    save("captioned-over.png", &over);
    let (over, going) = (decode(&over), decode(&draw([long, "Bo"], None, "PÜNCT")));
    assert!(
        more(&over, &going, &(1187 - 60..1187), &head) > 100,
        "Black's 1"
    );
    assert!(
        more(&over, &going, &(317 - 60..317), &head) > 100,
        "White's 0"
    );
    // Where there is no room beside the board there is no caption.
    let square = Options {
        width: 630,
        height: 630,
        flipped: false,
    };
    assert_eq!(
        punct_picture::captioned_png(&pos, last, &square, &caption(["A", "B"], Some(won))).unwrap(),
        punct_picture::png(&pos, last, &square).unwrap()
    );
}
