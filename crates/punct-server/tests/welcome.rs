//! The way in: what the home page and the Learn to play course ask of the server. A legal
//! move's answer carries the position after it and its outcome; the list of games carries
//! each live game's position; every lesson task's solution is legal and meets its goal as
//! the page's own checker (static/js/learn/checker.js, run under Node) reads the server's
//! answer; the home page's demo game is a real game.

mod common;

use std::io::Write as _;
use std::process::{Command, Stdio};

use common::*;
use punct_core::{Move, Position};
use serde_json::{Value, json};

const STATIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/static");

/// `GET /api/legal` for one move of a position.
async fn check(base: &str, position: &str, mv: &str) -> Value {
    let url = reqwest::Url::parse_with_params(
        &format!("{base}/api/legal"),
        [("position", position), ("move", mv)],
    )
    .unwrap();
    let (status, v) = get(url.as_str(), None).await;
    assert_eq!(status, 200, "{v}");
    v
}

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(format!("{STATIC}/{path}")).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[tokio::test]
async fn a_legal_moves_answer_has_the_position_after_it_and_its_outcome() {
    let base = start_in_process(&temp_db("welcome-legal")).await;
    let v = check(&base, "standard w 0 -", "TE4:0").await;
    assert_eq!(v["legal"], true);
    assert_eq!(v["position"], "standard b 1 wTE4:0@1");
    assert_eq!(v["outcome"], Value::Null);

    // A move that links two opposite sides wins, and the answer says so with the chain.
    let near = "standard w 10 wEA5:4@1,wED8:4@1,bTF3:0@1,wEG11:4@1,bTH4:0@1,wEJ13:5@1,bTK5:0@1,bEM8:0@1,wCN13:2@1,bTO11:0@1";
    let v = check(&base, near, "TP13:4").await;
    assert_eq!(v["legal"], true);
    assert_eq!(v["outcome"]["winner"], "white");
    assert_eq!(v["outcome"]["termination"], "connection");
    let chain = v["outcome"]["winning_chain"].as_array().unwrap();
    assert!(chain.contains(&json!("A5")) && chain.contains(&json!("Q13")));

    // A refused move has its reason and no position.
    let v = check(&base, "standard w 0 -", "TI9:0").await;
    assert_eq!(v["legal"], false);
    assert!(v["reason"].as_str().unwrap().contains("central hexagon"));
    assert!(v.get("position").is_none());
}

#[tokio::test]
async fn live_games_are_listed_with_their_position_and_finished_ones_without() {
    let base = start_in_process(&temp_db("welcome-list")).await;
    let (live, token) = create(&base, json!({ "mode": "local" })).await;
    let (status, state) = play_move(&base, &live, &token, "TE4:0").await;
    assert_eq!(status, 200, "{state}");
    let (over, over_token) = create(&base, json!({ "mode": "local" })).await;
    let (status, _) = play_move(&base, &over, &over_token, "TE4:0").await;
    assert_eq!(status, 200);
    let (status, _) = post(
        &format!("{base}/api/games/{over}/resign"),
        Some(&over_token),
        json!({}),
    )
    .await;
    assert_eq!(status, 200);

    let (_, list) = get(&format!("{base}/api/games"), None).await;
    let games = list["games"].as_array().unwrap();
    let line = |id: &str| games.iter().find(|g| g["id"] == id).unwrap().clone();
    assert_eq!(line(&live)["position"], state["position"]);
    assert_eq!(line(&live)["position"], "standard b 1 wTE4:0@1");
    assert!(line(&over).get("position").is_none());
}

/// Runs `script` (an ES module) with Node in static/js, `input` on its standard input;
/// None without Node.
fn node(script: &str, input: &str) -> Option<String> {
    let mut child = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(format!("{STATIC}/js"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "node failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Reads the tasks and the server's answers to their solutions on standard input, and
/// prints one line per task: its name and what the course's checker says.
const CHECK_ALL: &str = r#"
import { judgeAnswer } from "./learn/checker.js";
import { parsePosition } from "./position.js";
let input = "";
for await (const chunk of process.stdin) input += chunk;
for (const { name, goal, position, answer } of JSON.parse(input)) {
  const verdict = judgeAnswer(goal, parsePosition(position), answer);
  console.log(`${name} ${!verdict ? "refused" : verdict.met ? "met" : `unmet:${verdict.why}`}`);
}
"#;

#[tokio::test]
async fn every_lesson_task_is_solved_by_its_solution_and_not_by_doing_nothing_much() {
    let base = start_in_process(&temp_db("welcome-lessons")).await;
    let course = read_json("js/learn/lessons.json");
    let mut cases = Vec::new();
    let mut tasks = 0;
    for lesson in course["lessons"].as_array().unwrap() {
        for task in lesson["tasks"].as_array().unwrap() {
            tasks += 1;
            let name = format!(
                "{}/{}",
                lesson["id"].as_str().unwrap(),
                task["id"].as_str().unwrap()
            );
            let position = task["position"].as_str().unwrap();
            let pos = Position::from_text(position)
                .unwrap_or_else(|e| panic!("{name}: bad position: {e}"));
            assert_eq!(
                pos.to_string(),
                position,
                "{name}: the position is written as punct-core writes it"
            );
            assert!(
                pos.outcome().is_none(),
                "{name}: the game is not over before the task"
            );
            let solution = task["solution"].as_str().unwrap();
            let answer = check(&base, position, solution).await;
            // A task may be to try a move the rules forbid, and read why.
            let refused = task["goal"].get("refused");
            assert_eq!(
                answer["legal"],
                refused.is_none(),
                "{name}: {solution}: {answer}"
            );
            if let Some(code) = refused {
                assert_eq!(&answer["why"]["code"], code, "{name}: {solution}: {answer}");
            }
            cases.push(json!({ "name": name, "goal": task["goal"], "position": position, "answer": answer }));
            // The first legal move is not a solution by chance, except where any
            // placement is the point of the task.
            let first = pos.legal_move_texts().into_iter().next().unwrap();
            if task["goal"] != json!({ "kind": "place" }) && first != solution {
                let answer = check(&base, position, &first).await;
                cases.push(json!({ "name": format!("{name}:first"), "goal": task["goal"], "position": position, "answer": answer }));
            }
        }
    }
    assert!(tasks >= 12, "the course has {tasks} tasks");
    let Some(out) = node(CHECK_ALL, &Value::Array(cases).to_string()) else {
        eprintln!("SKIPPED the lesson goals under the course's checker: no Node.js installed");
        return;
    };
    for line in out.lines() {
        let (name, verdict) = line.split_once(' ').unwrap();
        if name.ends_with(":first") {
            assert!(
                verdict.starts_with("unmet:"),
                "{name}: the first legal move meets the goal"
            );
        } else {
            assert_eq!(
                verdict, "met",
                "{name}: its solution does not meet the goal"
            );
        }
    }
}

#[test]
fn the_home_pages_demo_game_is_a_real_game_to_its_end() {
    let demo = read_json("js/home/demo.json");
    let moves = demo["moves"].as_array().unwrap();
    let positions = demo["positions"].as_array().unwrap();
    assert_eq!(positions.len(), moves.len() + 1);
    let mut pos = Position::from_text(positions[0].as_str().unwrap()).unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let mv = Move::parse(mv.as_str().unwrap()).unwrap();
        pos.play(mv).unwrap_or_else(|e| panic!("move {i}: {e}"));
        assert_eq!(
            pos.to_string(),
            positions[i + 1].as_str().unwrap(),
            "after move {i}"
        );
    }
    let outcome = pos.outcome().expect("the demo game ends");
    let chain: Vec<String> = pos
        .winning_chain(outcome.winner.unwrap())
        .into_iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(json!(chain), demo["chain"]);
}
