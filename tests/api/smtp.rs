//! An SMTP server in process, speaking the protocol over TCP (RFC 5321: EHLO, AUTH PLAIN,
//! MAIL, RCPT, DATA, RSET, NOOP, QUIT), that keeps what it accepts for the tests to read.
//! It can refuse a recipient for good (550) or stop answering.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One message the server accepted.
#[derive(Debug, Clone)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    /// The message as transmitted (headers and body, dot-stuffing undone).
    pub data: String,
    /// The `user` of `AUTH PLAIN`, if the client authenticated.
    pub user: Option<String>,
}

impl Received {
    /// The body, with quoted-printable soft breaks and `=XX` escapes decoded.
    pub fn body(&self) -> String {
        let body = self
            .data
            .split_once("\r\n\r\n")
            .map_or(self.data.as_str(), |(_, b)| b);
        if self.data.contains("quoted-printable") {
            decode_qp(body)
        } else if self.data.contains("Content-Transfer-Encoding: base64") {
            let joined: String = body.split_whitespace().collect();
            String::from_utf8(
                base64::engine::general_purpose::STANDARD
                    .decode(joined)
                    .unwrap(),
            )
            .unwrap()
        } else {
            body.to_owned()
        }
    }

    /// The subject as written: folded lines joined, RFC 2047 encoded words decoded.
    pub fn subject(&self) -> String {
        let head = self.data.split_once("\r\n\r\n").map_or("", |(h, _)| h);
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        let raw = unfolded
            .split("\r\n")
            .find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.eq_ignore_ascii_case("subject"))
            })
            .map(|(_, v)| v.trim().to_owned())
            .unwrap_or_default();
        let mut out = String::new();
        let mut after_encoded = false;
        for word in raw.split(' ') {
            let decoded = word
                .strip_prefix("=?")
                .and_then(|w| w.strip_suffix("?="))
                .and_then(|w| {
                    let mut parts = w.splitn(3, '?');
                    let (_, enc, text) = (parts.next()?, parts.next()?, parts.next()?);
                    if enc.eq_ignore_ascii_case("b") {
                        let bytes = base64::engine::general_purpose::STANDARD
                            .decode(text)
                            .ok()?;
                        String::from_utf8(bytes).ok()
                    } else {
                        Some(decode_qp(&text.replace('_', " ")))
                    }
                });
            // Space between two encoded words is not part of the text (RFC 2047, 6.2).
            if !(out.is_empty() || after_encoded && decoded.is_some()) {
                out.push(' ');
            }
            after_encoded = decoded.is_some();
            out.push_str(decoded.as_deref().unwrap_or(word));
        }
        out
    }

    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split_once("\r\n\r\n")?.0;
        head.split("\r\n")
            .find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            })
            .map(|(_, v)| v.trim().to_owned())
    }
}

fn decode_qp(s: &str) -> String {
    let s = s.replace("=\r\n", "");
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Clone, Default)]
pub struct SmtpServer {
    pub port: u16,
    inbox: Arc<Mutex<Vec<Received>>>,
    refuse: Arc<Mutex<Vec<String>>>,
}

impl SmtpServer {
    /// Listens on a free loopback port.
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = Self {
            port: listener.local_addr().unwrap().port(),
            ..Self::default()
        };
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = s.session(socket).await;
                });
            }
        });
        server
    }

    /// A server that never answers: nothing listens on its port.
    pub fn unanswered() -> Self {
        let unused = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        Self {
            port: unused.local_addr().unwrap().port(),
            ..Self::default()
        }
    }

    /// `smtp://…` for `SELO_SMTP_URL`, with credentials.
    pub fn url(&self) -> String {
        format!("smtp://selo:segredo@127.0.0.1:{}", self.port)
    }

    /// Refuses this recipient for good (550) from now on.
    pub fn refuse(&self, address: &str) {
        self.refuse.lock().unwrap().push(address.to_owned());
    }

    pub fn inbox(&self) -> Vec<Received> {
        self.inbox.lock().unwrap().clone()
    }

    /// The messages to `address`, waiting up to 10 s for at least `n` of them.
    pub async fn wait_for(&self, address: &str, n: usize) -> Vec<Received> {
        for _ in 0..200 {
            let got: Vec<Received> = self
                .inbox()
                .into_iter()
                .filter(|m| m.to.iter().any(|t| t == address))
                .collect();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "no {n} message(s) to {address} arrived; inbox: {:?}",
            self.inbox()
        )
    }

    async fn session(&self, socket: tokio::net::TcpStream) -> std::io::Result<()> {
        let (read, mut write) = socket.into_split();
        let mut lines = BufReader::new(read);
        write.write_all(b"220 teste ESMTP\r\n").await?;
        let (mut from, mut to, mut user) = (String::new(), Vec::new(), None);
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            let cmd = line.trim_end().to_owned();
            let upper = cmd.to_ascii_uppercase();
            let answer: String = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                "250-teste\r\n250-AUTH PLAIN\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n".into()
            } else if let Some(creds) = cmd.strip_prefix("AUTH PLAIN ") {
                let raw = base64::engine::general_purpose::STANDARD
                    .decode(creds.trim())
                    .unwrap_or_default();
                let parts: Vec<&[u8]> = raw.split(|b| *b == 0).collect();
                user = parts
                    .get(1)
                    .map(|u| String::from_utf8_lossy(u).into_owned());
                "235 ok\r\n".into()
            } else if upper.starts_with("MAIL FROM:") {
                from = address(&cmd);
                to.clear();
                "250 ok\r\n".into()
            } else if upper.starts_with("RCPT TO:") {
                let a = address(&cmd);
                if self.refuse.lock().unwrap().contains(&a) {
                    "550 5.1.1 no such user\r\n".into()
                } else {
                    to.push(a);
                    "250 ok\r\n".into()
                }
            } else if upper == "DATA" {
                write.write_all(b"354 go on\r\n").await?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                self.inbox.lock().unwrap().push(Received {
                    from: from.clone(),
                    to: to.clone(),
                    data,
                    user: user.clone(),
                });
                "250 queued\r\n".into()
            } else if upper == "QUIT" {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            } else if upper == "RSET" || upper == "NOOP" {
                "250 ok\r\n".into()
            } else {
                "502 not implemented\r\n".into()
            };
            write.write_all(answer.as_bytes()).await?;
        }
    }
}

fn address(cmd: &str) -> String {
    cmd.split_once('<')
        .and_then(|(_, r)| r.split_once('>'))
        .map(|(a, _)| a.to_owned())
        .unwrap_or_default()
}
