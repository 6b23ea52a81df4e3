//! Work for the writer's transaction beside the games' writes: a closure that makes its
//! statements and computes an answer, run under a savepoint (so that one that fails is
//! undone alone), whose caller hears the answer once the transaction has committed, and
//! only then.

use tokio::sync::oneshot;

use super::WriteError;
use super::sql::Sql;

/// A piece of work for the writer's transaction.
pub(crate) trait Job: Send {
    /// Makes its statements in the transaction, under a savepoint.
    fn run(&mut self, db: &mut dyn Sql);
    /// Answers its caller: the transaction committed (`Ok`), or did not.
    fn finish(self: Box<Self>, committed: Result<(), WriteError>);
}

/// A job from a closure, answered on a channel.
pub(crate) struct Work<T, F> {
    work: Option<F>,
    result: Option<anyhow::Result<T>>,
    done: oneshot::Sender<Result<T, WriteError>>,
}

impl<T, F> Work<T, F>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Sql) -> anyhow::Result<T> + Send + 'static,
{
    /// The job of `work`, and where its answer will come.
    pub(crate) fn queued(work: F) -> (Box<dyn Job>, oneshot::Receiver<Result<T, WriteError>>) {
        let (done, answer) = oneshot::channel();
        let job = Work {
            work: Some(work),
            result: None,
            done,
        };
        (Box::new(job), answer)
    }
}

impl<T, F> Job for Work<T, F>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Sql) -> anyhow::Result<T> + Send + 'static,
{
    fn run(&mut self, db: &mut dyn Sql) {
        if let Some(work) = self.work.take() {
            self.result = Some(db.savepoint(work));
        }
    }

    fn finish(self: Box<Self>, committed: Result<(), WriteError>) {
        let Work { result, done, .. } = *self;
        let answer = committed.and_then(|()| match result {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(WriteError::Failed(format!("{e:#}"))),
            None => Err(WriteError::Failed("the work was never run".to_owned())),
        });
        let _ = done.send(answer);
    }
}

/// Runs every job in `jobs` in the transaction of `db`.
pub(super) fn run_all(db: &mut dyn Sql, jobs: &mut [Box<dyn Job>]) {
    for job in jobs {
        job.run(db);
    }
}
