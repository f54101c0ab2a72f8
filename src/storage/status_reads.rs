//! The scans' status reads, gathered. Under load many scans wait on the register at once, and
//! a read on its own pays its own trip to a connection: a hand-off to the connection's thread
//! on SQLite, a round trip to the server on PostgreSQL. One task per store takes the reads
//! waiting when a statement may start (at most [`IN_FLIGHT`] at once) and makes up to
//! [`BATCH_AT_MOST`] of them in one statement ([`Store::document_statuses_standing`]); a read
//! alone is a batch of one. A read is never answered by anything but its own document's rows:
//! when the gathering cannot serve it (no task, the task gone with its runtime, the batch's
//! statement failed), the read is made on its own, so an error a caller sees is its own read's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{Semaphore, mpsc, oneshot};
use uuid::Uuid;

use super::Store;
use super::ride_hailing::events::Gathered;

/// At most this many documents in one statement.
pub const BATCH_AT_MOST: usize = 32;
/// At most this many gathered statements at once, of the pool's connections.
pub const IN_FLIGHT: usize = 4;

/// The standing's event kinds a read asks for: the authorization's two, its driver's and car's.
pub type StandingKinds = ([&'static str; 2], &'static str);

/// The gathering of one store's status reads.
#[derive(Debug, Default)]
pub struct StatusReads {
    sender: Mutex<Option<mpsc::UnboundedSender<Request>>>,
}

struct Request {
    id: Uuid,
    kinds: StandingKinds,
    /// The store the read is for (the task keeps none between batches, so that it ends when
    /// the last store's handle is dropped).
    store: Store,
    reply: oneshot::Sender<Gathered>,
}

impl StatusReads {
    /// The document `id`'s status and standing, read with the others waiting.
    pub async fn read(&self, store: &Store, id: Uuid, kinds: StandingKinds) -> Gathered {
        let Some(sender) = self.sender() else {
            return Gathered::NotRead;
        };
        let (reply, answer) = oneshot::channel();
        let request = Request {
            id,
            kinds,
            store: store.clone(),
            reply,
        };
        if sender.send(request).is_err() {
            return Gathered::NotRead;
        }
        answer.await.unwrap_or(Gathered::NotRead)
    }

    /// The task's inbox, the task started (again) on the current runtime when there is none
    /// or it ended with the runtime it ran on.
    fn sender(&self) -> Option<mpsc::UnboundedSender<Request>> {
        let mut sender = self.sender.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(s) = sender.as_ref().filter(|s| !s.is_closed()) {
            return Some(s.clone());
        }
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let (s, inbox) = mpsc::unbounded_channel();
        runtime.spawn(gather(inbox));
        *sender = Some(s.clone());
        Some(s)
    }
}

/// Takes the reads waiting whenever a statement may start, until every store is dropped.
async fn gather(mut inbox: mpsc::UnboundedReceiver<Request>) {
    let permits = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(first) = inbox.recv().await {
        // While every permit is taken, the reads that arrive wait here and join the next batch.
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        let mut batch = vec![first];
        while batch.len() < BATCH_AT_MOST {
            match inbox.try_recv() {
                Ok(r) => batch.push(r),
                Err(_) => break,
            }
        }
        tokio::spawn(async move {
            read_batch(batch).await;
            drop(permit);
        });
    }
}

/// One statement per kind of read in `batch` (in practice one), each read answered with its
/// own document's rows.
async fn read_batch(batch: Vec<Request>) {
    let mut by_kinds: HashMap<StandingKinds, Vec<Request>> = HashMap::new();
    // A read whose caller stopped waiting (its deadline passed while the register was busy)
    // is not made: under overload the queue sheds what no one will read.
    for r in batch.into_iter().filter(|r| !r.reply.is_closed()) {
        by_kinds.entry(r.kinds).or_default().push(r);
    }
    for ((authorization_kinds, register_kind), requests) in by_kinds {
        let mut ids: Vec<Uuid> = requests.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let store = requests[0].store.clone();
        match store
            .document_statuses_standing(&ids, authorization_kinds, register_kind)
            .await
        {
            Ok(mut found) => {
                // The last request of an id takes the read; those before it a copy.
                let later: Vec<bool> = (0..requests.len())
                    .map(|i| requests[i + 1..].iter().any(|o| o.id == requests[i].id))
                    .collect();
                for (r, later) in requests.into_iter().zip(later) {
                    let read = if later {
                        found.get(&r.id).cloned()
                    } else {
                        found.remove(&r.id)
                    };
                    let _ = r.reply.send(Gathered::Read(Box::new(read)));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, reads = requests.len(), "verification: a gathered status read failed; each is read alone");
                for r in requests {
                    let _ = r.reply.send(Gathered::NotRead);
                }
            }
        }
    }
}
