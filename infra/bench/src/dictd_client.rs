//! A minimal client of the DICT protocol (RFC 2229), enough to time
//! `DEFINE` and `MATCH` against Debian's `dictd` on loopback.
//!
//! dictd writes an answer in several small segments, and with Nagle's
//! algorithm on its side each segment after the first waits for the
//! client's ACK, which Linux delays by up to 40 ms: the client asks for
//! quick ACKs before every read, as a latency-minded client would.

use socket2::SockRef;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpStream, ToSocketAddrs};

/// One connection to a DICT server, opened again when the server closes it
/// (dictd ends a connection after a number of queries, its query limit).
pub struct DictClient {
    address: std::net::SocketAddr,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// How many times the server closed the connection and it was opened
    /// again.
    pub reconnects: usize,
}

/// What a command answered: its final status code and how many lines of
/// text (definitions or matches) came before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub lines: usize,
}

impl DictClient {
    /// Connects and reads the server's banner (status 220).
    pub fn connect(address: impl ToSocketAddrs) -> std::io::Result<Self> {
        let address = address
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| std::io::Error::other("no address for dictd"))?;
        let (reader, writer) = Self::open(address)?;
        Ok(Self {
            address,
            reader,
            writer,
            reconnects: 0,
        })
    }

    fn open(address: std::net::SocketAddr) -> std::io::Result<(BufReader<TcpStream>, TcpStream)> {
        let stream = TcpStream::connect(address)?;
        stream.set_nodelay(true)?;
        let mut reader = BufReader::new(stream.try_clone()?);
        let banner = read_line(&mut reader, &stream)?;
        if !banner.starts_with("220") {
            return Err(std::io::Error::other(format!(
                "dictd did not greet: {banner}"
            )));
        }
        Ok((reader, stream))
    }

    /// `DEFINE database word`: status 250 after the definitions, or 552.
    pub fn define(&mut self, database: &str, word: &str) -> std::io::Result<Answer> {
        self.command(&format!("DEFINE {database} \"{}\"", quoted(word)))
    }

    /// `MATCH database strategy word`: status 250 after the matches, or 552.
    pub fn matches(
        &mut self,
        database: &str,
        strategy: &str,
        word: &str,
    ) -> std::io::Result<Answer> {
        self.command(&format!("MATCH {database} {strategy} \"{}\"", quoted(word)))
    }

    fn command(&mut self, line: &str) -> std::io::Result<Answer> {
        match self.send(line) {
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::BrokenPipe
                ) =>
            {
                (self.reader, self.writer) = Self::open(self.address)?;
                self.reconnects += 1;
                self.send(line)
            }
            answer => answer,
        }
    }

    fn send(&mut self, line: &str) -> std::io::Result<Answer> {
        self.writer.write_all(line.as_bytes())?;
        self.writer.write_all(b"\r\n")?;
        let mut lines = 0;
        loop {
            let line = self.read_line()?;
            let status = status_of(&line)
                .ok_or_else(|| std::io::Error::other(format!("not a status line: {line}")))?;
            match status {
                // 151 (a definition) and 152 (matches) are followed by text
                // that ends with a lone "."; 150 only announces definitions.
                151 | 152 => {
                    while self.read_line()? != "." {
                        lines += 1;
                    }
                }
                150 => {}
                _ => return Ok(Answer { status, lines }),
            }
        }
    }

    fn read_line(&mut self) -> std::io::Result<String> {
        read_line(&mut self.reader, &self.writer)
    }
}

/// One line from the server, CRLF removed, asking for a quick ACK first.
fn read_line(reader: &mut BufReader<TcpStream>, socket: &TcpStream) -> std::io::Result<String> {
    SockRef::from(socket).set_tcp_quickack(true)?;
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "dictd closed the connection",
        ));
    }
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// The status code of a status line: three digits, then a space or the
/// end of the line.
fn status_of(line: &str) -> Option<u16> {
    let bytes = line.as_bytes();
    let is_status = bytes.len() >= 3
        && bytes[..3].iter().all(u8::is_ascii_digit)
        && bytes.get(3).is_none_or(|b| *b == b' ');
    is_status.then(|| line[..3].parse().expect("three ASCII digits"))
}

/// A word as a DICT quoted string: backslashes and quotes escaped.
fn quoted(word: &str) -> String {
    word.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_are_told_from_text() {
        assert_eq!(
            status_of("250 ok [d/m/c = 1/0/20; 0.000r 0.000u 0.000s]"),
            Some(250)
        );
        assert_eq!(status_of("552 no match [d/m/c = 0/0/3]"), Some(552));
        assert_eq!(status_of("152 33 matches found"), Some(152));
        assert_eq!(status_of("deu-eng \"hausbar\""), None);
        assert_eq!(status_of("."), None);
        assert_eq!(status_of("250"), Some(250));
        assert_eq!(status_of("2500 m"), None);
        assert_eq!(status_of("25x ok"), None);
    }

    #[test]
    fn words_are_quoted_for_the_protocol() {
        assert_eq!(quoted(r#"say "hi" \ bye"#), r#"say \"hi\" \\ bye"#);
    }
}
